// Checks the extension's manifest and the packed .vsix (run by make vsix,
// after npm run package): node --test test/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The file names of a zip archive, from its central directory.
function zipNames(buf) {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  assert.ok(eocd >= 0, 'not a zip archive (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let n = 0; n < count; n++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, 'bad central directory entry');
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    names.push(buf.subarray(p + 46, p + 46 + nameLen).toString('utf8'));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

test('the manifest names the extension, its VS Code range, activation and settings', () => {
  assert.equal(manifest.name, 'crdlab');
  assert.equal(manifest.publisher, 'crdlab');
  assert.match(manifest.engines.vscode, /^\^1\.\d+\.\d+$/);
  assert.deepEqual(manifest.activationEvents, ['onLanguage:yaml']);
  assert.equal(manifest.main, './dist/extension.js');
  const props = manifest.contributes.configuration.properties;
  assert.equal(props['crdlab.path'].type, 'string');
  assert.equal(props['crdlab.crdPaths'].type, 'array');
  assert.equal(props['crdlab.debounceMs'].type, 'number');
  // @types/vscode must not be newer than the oldest VS Code supported
  const types = manifest.devDependencies['@types/vscode'].replace(/^[~^]/, '');
  const engine = manifest.engines.vscode.replace(/^\^/, '');
  assert.equal(types.split('.').slice(0, 2).join('.'), engine.split('.').slice(0, 2).join('.'));
  assert.ok(manifest.dependencies['vscode-languageclient']);
});

test('the .vsix holds the bundled extension and its manifest', { skip: !existsSync(join(root, 'crdlab.vsix')) && 'no crdlab.vsix: run npm run package (make vsix)' }, () => {
  const names = zipNames(readFileSync(join(root, 'crdlab.vsix')));
  for (const n of ['extension.vsixmanifest', '[Content_Types].xml', 'extension/package.json', 'extension/dist/extension.js', 'extension/readme.md']) {
    assert.ok(names.map((x) => x.toLowerCase()).includes(n.toLowerCase()), `${n} not in the .vsix: ${names.join(', ')}`);
  }
  // bundled: no node_modules, no sources
  assert.ok(!names.some((n) => n.includes('node_modules/') || n.endsWith('.ts')), names.join(', '));
  const packed = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(packed.version, manifest.version);
  // the bundle carries the language client (no runtime dependency left)
  const bundle = readFileSync(join(root, 'dist', 'extension.js'), 'utf8');
  assert.match(bundle, /crdlab/);
  assert.match(bundle, /textDocument\/publishDiagnostics|publishDiagnostics/);
});
