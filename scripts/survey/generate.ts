// Writes the synthetic survey of @fieldops/survey-fixtures to a folder, to look at the photos or run
// COLMAP on them by hand: `node scripts/survey/generate.ts <dir> [precise|noisy|none] [rows] [cols]`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSurvey, type PositionGrade } from '@fieldops/survey-fixtures/survey';

const [dir, grade = 'precise', rows = '3', cols = rows] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/survey/generate.ts <dir> [precise|noisy|none] [rows] [cols]');
  process.exit(2);
}
const survey = generateSurvey({ grade: grade as PositionGrade, grid: [Number(rows), Number(cols)] });
await mkdir(dir, { recursive: true });
for (const photo of survey.photos) await writeFile(join(dir, photo.name), photo.bytes);
console.log(`${survey.photos.length} photos in ${dir}; true volume ${survey.trueVolumeM3.toFixed(2)} m³`);
