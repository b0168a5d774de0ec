import { ACCOUNT_TOOLS } from './accounts';
import type { LocalTool } from './kit';
import { RECORD_TOOLS } from './records';
import { REMOTE_EQUIVALENTS } from './remote-equivalents';

/** Every tool of the stdio server: the 21 remote equivalents, then the 15 local ones (36). */
export const ALL_LOCAL_TOOLS: LocalTool[] = [...REMOTE_EQUIVALENTS, ...ACCOUNT_TOOLS, ...RECORD_TOOLS];
