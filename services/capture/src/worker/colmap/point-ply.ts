// The scene's point cloud as a binary PLY (float64 x, y, z in metres of the survey's local
// east-north-up frame, and colour): the artifact a client downloads and the file the measurement
// engine reads, so the figures come from exactly what is stored.
import type { SparsePoints } from './sparse-model.ts';

export function pointCloudPly(points: SparsePoints, comment: string): Buffer {
  const header = Buffer.from(
    [
      'ply',
      'format binary_little_endian 1.0',
      `comment ${comment.replace(/[\r\n]/g, ' ')}`,
      `element vertex ${points.count}`,
      'property double x',
      'property double y',
      'property double z',
      'property uchar red',
      'property uchar green',
      'property uchar blue',
      'end_header',
      '',
    ].join('\n'),
    'ascii',
  );
  const stride = 27;
  const body = Buffer.alloc(points.count * stride);
  for (let i = 0; i < points.count; i++) {
    const o = i * stride;
    body.writeDoubleLE(points.xyz[3 * i]!, o);
    body.writeDoubleLE(points.xyz[3 * i + 1]!, o + 8);
    body.writeDoubleLE(points.xyz[3 * i + 2]!, o + 16);
    body[o + 24] = points.rgb[3 * i]!;
    body[o + 25] = points.rgb[3 * i + 1]!;
    body[o + 26] = points.rgb[3 * i + 2]!;
  }
  return Buffer.concat([header, body]);
}
