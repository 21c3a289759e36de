// Types for the build step's exports, used by its unit test and the e2e check.
export declare const COMPILE_HINT: string;
export declare function addCompileHints(nextDir: string): string[];
