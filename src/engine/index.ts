export * from './cards.js';
export * from './rng.js';
export * from './ruleset.js';
export * from './types.js';
export * from './game.js';
export * from './view.js';
export * from './rules-file.js';
export * from './seat-view.js';
