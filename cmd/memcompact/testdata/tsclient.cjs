// The official TypeScript MCP client against "memcompact mcp": lists the
// tools (listTools throws on an output schema whose root is not an
// object) and calls each with the arguments the Go test gives (callTool
// validates structuredContent against the tool's output schema).
// Usage: node tsclient.cjs SDK_PREFIX MEMCOMPACT CASES.json
const path = require('path');
const fs = require('fs');
const { createRequire } = require('module');

const [prefix, bin, casesFile] = process.argv.slice(2);
const sdk = createRequire(path.join(prefix, 'node_modules', 'index.js'));
const { Client } = sdk('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = sdk('@modelcontextprotocol/sdk/client/stdio.js');
const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8'));

(async () => {
  const transport = new StdioClientTransport({ command: bin, args: ['mcp'], cwd: cases.dir, env: cases.env, stderr: 'inherit' });
  const client = new Client({ name: 'memcompact-test', version: '0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const out = { tools: [], calls: {} };
  for (const tool of tools) {
    out.tools.push(tool.name);
    const args = cases.args[tool.name];
    if (!args) {
      out.calls[tool.name] = { error: 'no case' };
      continue;
    }
    try {
      const r = await client.callTool({ name: tool.name, arguments: args });
      const sc = r.structuredContent || {};
      out.calls[tool.name] = { exit_code: sc.exit_code, status: sc.status, is_error: !!r.isError, has_result: sc.result !== undefined };
    } catch (e) {
      out.calls[tool.name] = { error: String(e && e.message ? e.message : e) };
    }
  }
  await client.close();
  process.stdout.write(JSON.stringify(out) + '\n');
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
