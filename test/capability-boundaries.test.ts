import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own lint configuration (eslint.config.mjs), run on fixture sources placed at real paths
// of the tree: lib/<capability>/index.ts is the only door, besides the entries the configuration names.
const eslint = new ESLint({ cwd: process.cwd() });

const BOUNDARY_RULES = ['no-restricted-imports', 'no-restricted-syntax'];

/** The boundary errors of `code` if it were the file at `filePath`. */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId && BOUNDARY_RULES.includes(m.ruleId)).map((m) => m.message);
}

describe('capability boundaries (eslint.config.mjs)', () => {
  it("fails a deep import into another capability, from another capability and from outside lib/, and passes its index", async () => {
    for (const file of ['lib/cards/fixture.ts', 'components/fixture.tsx', 'app/api/fixture/route.ts']) {
      expect(await boundaryErrors(file, `import { writeMessage } from '@/lib/chat/pipeline';\nexport const use = writeMessage;\n`)).toEqual([
        expect.stringContaining('through its index'),
      ]);
      expect(await boundaryErrors(file, `import { sendMessage } from '@/lib/chat';\nexport const use = sendMessage;\n`)).toEqual([]);
    }
    // A type is no exception: it comes through the door too.
    expect(await boundaryErrors('components/fixture.tsx', `import type { Card } from '@/lib/cards/card';\nexport type Use = Card;\n`)).toHaveLength(1);
    expect(await boundaryErrors('components/fixture.tsx', `import type { Card } from '@/lib/cards';\nexport type Use = Card;\n`)).toEqual([]);
  });

  it('lets a capability import its own modules, but no relative path out of its folder', async () => {
    expect(await boundaryErrors('lib/cards/fixture.ts', `import { titleOf } from '@/lib/cards/keys';\nexport const use = titleOf;\n`)).toEqual([]);
    expect(await boundaryErrors('lib/cards/fixture.ts', `import { titleOf } from './keys';\nexport const use = titleOf;\n`)).toEqual([]);
    expect(await boundaryErrors('lib/cards/fixture.ts', `import { writeMessage } from '../chat/pipeline';\nexport const use = writeMessage;\n`)).toHaveLength(1);
    expect(await boundaryErrors('test/fixture.ts', `import { getDb } from '../lib/db';\nexport const use = getDb;\n`)).toHaveLength(1);
  });

  it('opens only the named entries, and the test helpers to tests alone', async () => {
    const entry = `import { readAttachments } from '@/lib/cards/client';\nexport const use = readAttachments;\n`;
    expect(await boundaryErrors('components/fixture.tsx', entry)).toEqual([]);
    const helper = `import { chatWorld } from '@/lib/chat/test-world';\nexport const use = chatWorld;\n`;
    expect(await boundaryErrors('lib/cards/fixture.test.ts', helper)).toEqual([]);
    expect(await boundaryErrors('inngest/functions/fixture.test.ts', helper)).toEqual([]);
    expect(await boundaryErrors('lib/cards/fixture.ts', helper)).toHaveLength(1);
    expect(await boundaryErrors('components/fixture.tsx', helper)).toHaveLength(1);
  });

  it('checks import(…) as well', async () => {
    const lazy = `export const load = () => import('@/lib/auth/supabase');\n`;
    expect(await boundaryErrors('proxy.ts', lazy)).toEqual([expect.stringContaining('through its index')]);
    expect(await boundaryErrors('lib/auth/fixture.ts', lazy)).toEqual([]);
  });

  it('keeps lib/actions from importing lib/autonomy, which executes its actions', async () => {
    const up = `import { submitAction } from '@/lib/autonomy';\nexport const use = submitAction;\n`;
    expect(await boundaryErrors('lib/actions/fixture.ts', up)).toEqual([expect.stringContaining('never calls back')]);
    expect(await boundaryErrors('lib/insights/fixture.ts', up)).toEqual([]);
  });
});
