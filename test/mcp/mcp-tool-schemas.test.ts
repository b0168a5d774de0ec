import { describe, expect, it } from 'vitest';
import { lintListedTools } from '../helpers/schema-lint';
import { makeUser } from '../helpers/factory';
import { connectLegacy, connectModern } from '../helpers/mcp';

/*
 * The tool list as clients read it: every input property described (role ids included: they come
 * from me's shift_roles), and every schema passing the MCP Inspector's strict portability checks
 * with no finding, on both protocol revisions. The stdio tool server's list is checked the same way
 * in packages/shiftmarket-mcp/test/schemas.test.ts.
 */
describe('listed tool schemas', () => {
  it('pass the strict checks on both revisions, with every input property described', async () => {
    const u = await makeUser({ shifter: true, business: true });
    const modern = await connectModern(u.key);
    const legacy = await connectLegacy(u.key);
    for (const client of [modern, legacy]) {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(21);
      expect(lintListedTools(tools)).toEqual([]);
      const post = tools.find((t) => t.name === 'shiftmarket.post_shift')!;
      const role = (post.inputSchema.properties as Record<string, { description?: string }>).shiftrole_id;
      expect(role?.description).toContain('shift_roles');
    }
    await modern.close();
    await legacy.close();
  });

  it('me lists the roles a shift can be posted for, with the ids post_shift takes', async () => {
    const u = await makeUser({ business: true });
    const client = await connectModern(u.key);
    const res = (await client.callTool({ name: 'shiftmarket.me', arguments: {} })) as {
      structuredContent?: { shift_roles?: Array<{ id: number; slug: string; label: string }> };
    };
    expect(res.structuredContent?.shift_roles).toEqual(expect.arrayContaining([{ id: 1, slug: 'server', label: 'Server' }]));
    await client.close();
  });
});
