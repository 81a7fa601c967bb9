import { mkdirSync, writeFileSync } from 'node:fs';
import { generateSurvey } from '../../test/support/survey/survey.js';
const [dir, w, h] = process.argv.slice(2);
mkdirSync(dir!, { recursive: true });
for (const p of generateSurvey({ width: Number(w), height: Number(h) }).photos) writeFileSync(`${dir}/${p.name}`, p.bytes);
