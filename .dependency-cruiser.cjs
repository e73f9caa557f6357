/**
 * Import cycles, run by `npm run lint`. Type-only imports count (tsPreCompilationDeps): a cycle
 * of types is still two files that cannot be read, moved or tested apart.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module never reaches itself through its imports, types included: move the shared part down (to the model or a ports file).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '/generated/', '\\.stack/', 'coverage/'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
