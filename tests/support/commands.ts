import { newCommandContext, type CommandContext } from '../../application/shared/command-context.js';

/** A fresh context for one command by `operator` (each call names a new command). */
export const asOperator = (operator = 'ops'): CommandContext => newCommandContext({ actor: { operator } });
