const t0 = process.cpuUsage();
const tk = require('@rental/testkit');
const { bootStack, shutdownStack, createTestPartner } = tk;
(async () => {
  const stack = await bootStack({});
  const c = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  await createTestPartner(stack); const inspector = require("inspector"); const s = new inspector.Session(); s.connect(); await new Promise(r => s.post("Profiler.enable", () => s.post("Profiler.start", r)));
  for (let i = 0; i < 10; i++) { const a = c(); const w = Date.now(); await createTestPartner(stack); console.log('createTestPartner cpu-ms', (c() - a) | 0, 'wall', Date.now() - w); }
  await new Promise(r => s.post("Profiler.stop", (e, { profile }) => { require("fs").writeFileSync("/tmp/partner.cpuprofile", JSON.stringify(profile)); r(); }));
  await shutdownStack(stack); process.exit(0);
})();
