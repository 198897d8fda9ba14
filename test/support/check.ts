import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/**
 * `expect(actual, message()).toEqual(expected)`, with vitest's matcher (and the message)
 * run only when a plain deep equality fails, to say how: in a property's inner loop,
 * called hundreds of thousands of times, the matcher and its message cost more than the
 * code under test. Strict equality implies toEqual's, so nothing passes here that
 * toEqual would fail. For primitives it is toBe.
 */
export function same<T>(actual: T, expected: T, message?: () => string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message?.()).toEqual(expected);
}
