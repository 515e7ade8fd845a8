import { InputRequiredTools } from './input-required.tools.js';
import { StatelessTools } from './stateless.tools.js';
import { TaskTools } from './task.tools.js';

/** The providers of the 2026-07-28 fixtures (server-stateless, input-required-result-*, tasks-*). */
export const REV_2026_07_28_FIXTURES = [StatelessTools, InputRequiredTools, TaskTools];
