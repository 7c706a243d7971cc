// A minimal WASI preview-1 import object: exactly what Go's wasip1 runtime
// imports, for a module that opens no files. It runs unchanged in Node and
// in browsers (no node:wasi needed), so one module and one loader serve both.

const ESUCCESS = 0;
const EBADF = 8;
const ENOSYS = 52;

export class WasiExit extends Error {
  constructor(code) {
    super(`wasm module exited with code ${code}`);
    this.code = code;
  }
}

// options.env is the module's environment (e.g. { GOGC: '400' }); empty by
// default, so Go's default GOGC=100 applies (RATIONALE.md, "Why these
// collector and memory settings?").
export function makeWasi(getMemory, { stderr = (s) => console.error(s), env = {} } = {}) {
  const view = () => new DataView(getMemory().buffer);
  const bytes = () => new Uint8Array(getMemory().buffer);
  const decoder = new TextDecoder();
  const environ = Object.entries(env).map(([k, v]) => new TextEncoder().encode(`${k}=${v}\0`));
  let pending = '';
  const flush = (text) => {
    pending += text;
    let i;
    while ((i = pending.indexOf('\n')) >= 0) {
      stderr(pending.slice(0, i));
      pending = pending.slice(i + 1);
    }
  };
  const now = () => {
    if (typeof performance !== 'undefined' && performance.timeOrigin) {
      return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));
    }
    return BigInt(Date.now()) * 1000000n;
  };
  return {
    args_sizes_get(argcPtr, bufSizePtr) {
      const v = view();
      v.setUint32(argcPtr, 0, true);
      v.setUint32(bufSizePtr, 0, true);
      return ESUCCESS;
    },
    args_get() { return ESUCCESS; },
    environ_sizes_get(countPtr, bufSizePtr) {
      const v = view();
      v.setUint32(countPtr, environ.length, true);
      v.setUint32(bufSizePtr, environ.reduce((n, e) => n + e.length, 0), true);
      return ESUCCESS;
    },
    environ_get(environPtr, bufPtr) {
      const v = view();
      environ.forEach((e, i) => {
        v.setUint32(environPtr + i * 4, bufPtr, true);
        bytes().set(e, bufPtr);
        bufPtr += e.length;
      });
      return ESUCCESS;
    },
    clock_time_get(_id, _precision, resultPtr) {
      view().setBigUint64(resultPtr, now(), true);
      return ESUCCESS;
    },
    random_get(ptr, len) {
      const buf = bytes().subarray(ptr, ptr + len);
      for (let off = 0; off < len; off += 65536) {
        globalThis.crypto.getRandomValues(buf.subarray(off, Math.min(len, off + 65536)));
      }
      return ESUCCESS;
    },
    fd_write(fd, iovs, iovsLen, nwrittenPtr) {
      const v = view();
      let written = 0;
      let text = '';
      for (let i = 0; i < iovsLen; i++) {
        const ptr = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        text += decoder.decode(bytes().subarray(ptr, ptr + len));
        written += len;
      }
      if (fd === 1 || fd === 2) flush(text);
      else return EBADF;
      v.setUint32(nwrittenPtr, written, true);
      return ESUCCESS;
    },
    fd_close() { return ESUCCESS; },
    fd_fdstat_get(fd, statPtr) {
      if (fd > 2) return EBADF;
      const v = view();
      v.setUint8(statPtr, 2); // character device
      v.setUint16(statPtr + 2, 0, true);
      v.setBigUint64(statPtr + 8, 0n, true);
      v.setBigUint64(statPtr + 16, 0n, true);
      return ESUCCESS;
    },
    fd_fdstat_set_flags() { return ESUCCESS; },
    fd_prestat_get() { return EBADF; },
    fd_prestat_dir_name() { return EBADF; },
    // Go sleeps through poll_oneoff; a reactor call never waits on a timer,
    // so every subscription is reported as ready at once.
    poll_oneoff(inPtr, outPtr, nsubs, neventsPtr) {
      const v = view();
      for (let i = 0; i < nsubs; i++) {
        const sub = inPtr + i * 48;
        const ev = outPtr + i * 32;
        v.setBigUint64(ev, v.getBigUint64(sub, true), true);
        v.setUint16(ev + 8, ESUCCESS, true);
        v.setUint8(ev + 10, v.getUint8(sub + 8));
      }
      v.setUint32(neventsPtr, nsubs, true);
      return ESUCCESS;
    },
    sched_yield() { return ESUCCESS; },
    proc_exit(code) { throw new WasiExit(code); },
    fd_read() { return EBADF; },
    path_open() { return ENOSYS; },
    path_filestat_get() { return ENOSYS; },
  };
}

/**
 * Returns the WASI import object for a compiled module: makeWasi's functions
 * plus, for any other wasi_snapshot_preview1 function the module imports
 * (Go's syscall package links a few file functions the engine never calls),
 * a stub answering ENOSYS, so that linking never fails on a new import.
 */
export function wasiImportsFor(mod, getMemory, options) {
  const wasi = makeWasi(getMemory, options);
  for (const imp of WebAssembly.Module.imports(mod)) {
    if (imp.module === 'wasi_snapshot_preview1' && imp.kind === 'function' && !(imp.name in wasi)) {
      wasi[imp.name] = () => ENOSYS;
    }
  }
  return wasi;
}
