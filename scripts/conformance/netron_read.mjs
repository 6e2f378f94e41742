// Reads one file with Netron's model readers (executorch.js for .pte) under
// Node, the way the app opens a file, then walks every graph, node, argument
// and tensor so lazy decoding runs too. Exit 0: Netron opened it; 1: it
// refused (threw); a crash of Node is a signal.
//   node netron_read.mjs NETRON_DIR FILE
// NETRON_DIR is the `netron` package's folder (pip install netron).
import * as fs from 'fs';
import * as path from 'path';
import * as url from 'url';

const [dir, file] = process.argv.slice(2);
const load = (id) => import(url.pathToFileURL(path.join(dir, id.endsWith('.js') ? id : `${id}.js`)).href);
const base = await load('base');
const view = await load('view');
const host = {
    type: 'Test',
    environment: (name) => name === 'serial' ? true : undefined,
    require: (id) => load(id),
    asset: async (name) => fs.readFileSync(path.join(dir, name), 'utf-8'),
    exception: () => {},
    event: () => {},
};
const context = {
    identifier: path.basename(file),
    stream: new base.BinaryStream(fs.readFileSync(file)),
    asset: host.asset,
    require: host.require,
    exception: host.exception,
    fetch: async () => { throw new Error('no other files'); },
};
const touch = (value, depth) => {
    if (depth > 8 || value === null || typeof value !== 'object') {
        return;
    }
    if (value.initializer) {
        const t = new base.Tensor(value.initializer);
        void t.layout;
        void t.value;
    }
    for (const key of ['inputs', 'outputs', 'nodes', 'value', 'attributes']) {
        const items = value[key];
        if (Array.isArray(items)) {
            for (const item of items) {
                touch(item, depth + 1);
            }
        }
    }
};
try {
    const model = await new view.ModelFactoryService(host).open(context);
    for (const module of model.modules || []) {
        touch(module, 0);
    }
    process.exit(0);
} catch (error) {
    process.stderr.write(`${error && error.message ? error.message : error}\n`);
    process.exit(1);
}
