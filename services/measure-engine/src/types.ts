// The engine's input and output types, shared by the built-in engine (3D points in, quantities
// out), the measurements service that stores the results, and the capture workers that call the
// engine on the files a capture uploaded. Everything is in canonical SI: metres, square metres, cubic metres,
// tonnes; units are written as UCUM codes ('m', 'm2', 'm3', 't').
// One file per section lives in ./types/; this file gathers them so importers keep one path.

export * from './types/points.ts';
export * from './types/capture-accuracy.ts';
export * from './types/regions.ts';
export * from './types/quantities.ts';
export * from './types/takeoffs.ts';
