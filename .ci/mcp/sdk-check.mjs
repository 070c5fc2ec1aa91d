// Checks the MCP endpoint with the official TypeScript SDK: connect
// (initialize, initialized, the optional SSE stream refused with 405), list
// tools and resources, call every read tool, read every resource, and see the
// contract's error codes arrive as JSON-RPC errors. Exits non-zero on the
// first failure.
//
//   node sdk-check.mjs URL API_KEY
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

const [url, key] = process.argv.slice(2);
if (!url || !key) {
  console.error("usage: node sdk-check.mjs URL API_KEY");
  process.exit(2);
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function connect(apiKey) {
  const client = new Client({ name: "venue-ci-ts-sdk", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { "X-API-Key": apiKey } },
  });
  await client.connect(transport);
  return client;
}

async function expectCode(promise, code, what) {
  try {
    await promise;
  } catch (err) {
    assert(err instanceof McpError || typeof err?.code === "number", `${what}: not a JSON-RPC error: ${err}`);
    assert(err.code === code, `${what}: want ${code}, got ${err.code} (${err.message})`);
    return;
  }
  throw new Error(`${what}: want error ${code}, got a result`);
}

const today = new Date().toISOString().slice(0, 10);
const client = await connect(key);
const version = client.getServerVersion();
assert(version?.name === "venue", `serverInfo: ${JSON.stringify(version)}`);
await client.ping();

const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
const want = [
  "search_schedule", "check_availability", "search_members", "get_member_details",
  "get_revenue_summary", "get_today_overview", "create_flash_sale", "get_sales_snapshot",
  "get_attendance_report", "get_brand_analytics",
];
assert(JSON.stringify(names) === JSON.stringify(want), `tools: ${names}`);
for (const t of tools) assert(t.inputSchema?.type === "object", `${t.name}: inputSchema`);

function structured(result, what) {
  assert(!result.isError, `${what}: isError`);
  assert(result.content?.[0]?.type === "text", `${what}: text content`);
  JSON.parse(result.content[0].text);
  assert(result.structuredContent && typeof result.structuredContent === "object", `${what}: structuredContent`);
  return result.structuredContent;
}

const day = structured(await client.callTool({ name: "search_schedule", arguments: { date: today } }), "search_schedule");
const week = structured(await client.callTool({ name: "search_schedule", arguments: { date: today, limit: 100 } }), "search_schedule");
assert(week.count <= 100, "search_schedule ceiling");
structured(await client.callTool({ name: "get_revenue_summary", arguments: { period: "month" } }), "get_revenue_summary");
structured(await client.callTool({ name: "get_today_overview", arguments: {} }), "get_today_overview");
const members = structured(await client.callTool({ name: "search_members", arguments: { query: "a" } }), "search_members");
assert(members.count <= 25, "search_members ceiling");
if (day.classes?.length) {
  structured(await client.callTool({ name: "check_availability", arguments: { class_instance_id: day.classes[0].id } }), "check_availability");
}
if (members.members?.length) {
  structured(await client.callTool({ name: "get_member_details", arguments: { member_id: members.members[0].id } }), "get_member_details");
}

const { resources } = await client.listResources();
assert(resources.length === 2, `resources: ${resources.length}`);
const { resourceTemplates } = await client.listResourceTemplates();
assert(resourceTemplates.length === 6, `templates: ${resourceTemplates.length}`);
const uris = [
  `venue://schedule/${today}`, `venue://classes/${today}..${today}`, `venue://members/${encodeURIComponent("a")}`,
  "venue://passes", `venue://bookings/${today}`, "venue://revenue/today", "venue://alerts",
];
if (members.members?.length) uris.push(`venue://member/${members.members[0].id}`);
for (const uri of uris) {
  const r = await client.readResource({ uri });
  assert(r.contents.length === 1 && r.contents[0].mimeType === "application/json", `${uri}: contents`);
  JSON.parse(r.contents[0].text);
}

await expectCode(client.callTool({ name: "search_schedule", arguments: { date: "2026-02-30" } }), -32602, "bad date");
await expectCode(client.callTool({ name: "no_such_tool", arguments: {} }), -32601, "unknown tool");
await expectCode(client.readResource({ uri: "venue://member/00000000-0000-4000-8000-000000000000" }), -32005, "unknown member");
await client.close();

const stranger = new Client({ name: "venue-ci-ts-sdk", version: "1.0.0" });
await expectCode(
  stranger.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { "X-API-Key": "vk_bad" } } })),
  -32001, "bad key");

console.log(`typescript sdk: ok (${names.length} tools, ${uris.length} resources read)`);
