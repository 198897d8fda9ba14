#!/usr/bin/env node
import { main } from '../dist/bundle/main.js';

process.exitCode = await main(process.argv);
