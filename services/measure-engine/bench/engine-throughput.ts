// The engine's throughput: points per second measuring one stockpile region on a LAS file of N
// points (default 10 million) written to a temporary directory. Run with
//   node services/measure-engine/bench/engine-throughput.ts [--points 10000000]
// It prints one JSON line. `npm run bench` measures the same thing (its `engine` row) through
// the shared code in throughput.ts.
import { parseArgs } from 'node:util';
import { measureEngineThroughput } from './throughput.ts';

const { values } = parseArgs({ options: { points: { type: 'string', default: '10000000' } } });
const points = Number(values.points);
if (!Number.isInteger(points) || points <= 0) throw new Error('--points takes a positive whole number');
process.stdout.write(`${JSON.stringify(await measureEngineThroughput(points))}\n`);
