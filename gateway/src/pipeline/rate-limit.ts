// Read and write buckets per token (Limits): a token bucket refilled continuously, so a client
// that paces itself never sees a 429, and a burst is capped at one minute's allowance.
import { AppError } from '@fieldops/kit';
import type { FastState } from '@fieldops/kit/fast';
import type { Response } from 'express';
import type { RateBucket, RateLimits } from '../limits.ts';

export async function takeRequest(
  fast: FastState,
  limits: RateLimits,
  bucket: RateBucket,
  subject: string,
  res: Response,
): Promise<void> {
  const perMinute = limits.perMinute[bucket];
  const result = await fast.takeToken(`rate:${bucket}:${subject}`, perMinute, perMinute / 60);
  res.setHeader('X-RateLimit-Limit', String(perMinute));
  res.setHeader('X-RateLimit-Remaining', String(result.remaining));
  if (result.allowed) return;
  const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
  res.setHeader('Retry-After', String(seconds));
  throw new AppError(
    'rate_limited',
    `This token has used its ${bucket} allowance of ${perMinute} per minute; retry after ${seconds} s.`,
    { bucket, retryAfterSeconds: seconds },
  );
}
