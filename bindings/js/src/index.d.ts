/** The ABI version this package speaks. */
export declare const ABI_VERSION: 1;

/** An error returned by the module. `code` is BadRequest, DecodeError, NotFound, Invalid, Panic, Trap or Load. */
export declare class CrdlabError extends Error {
  readonly code: string;
  readonly detail: string;
}

/** One field error, as kube-apiserver reports it. */
export interface FieldError {
  /** upstream's field.ErrorType, e.g. "FieldValueInvalid" */
  type: string;
  /** the field path, e.g. "spec.replicas" */
  field: string;
  detail: string;
  /** the full rendered error, e.g. "spec.replicas: Invalid value: 15: ..." */
  message: string;
}

export interface CRDReport {
  errors: FieldError[];
  warnings: string[];
}

export interface ObjectReport {
  /** the final object (pruned, defaulted), or null if the request failed while decoding */
  result: unknown;
  pruned: string[];
  decodeError?: string;
  errors: FieldError[];
  warnings: string[];
}

/** The document `crdlab validate -o json` prints. `object` is null when the CRD is invalid. */
export interface Report {
  crd: CRDReport;
  object: ObjectReport | null;
}

export interface ValidateOptions {
  /** the old object, for an update */
  old?: string | object;
  /** the CRD version; default: the object's apiVersion */
  version?: string;
  /** "status" to validate a write to the status subresource */
  subresource?: '' | 'status';
  /** default "Strict", as kubectl sends */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
}

export interface LoadOptions {
  /** where the module's stderr lines go (default console.error) */
  stderr?: (line: string) => void;
}

export declare class CompiledCRD {
  readonly report: CRDReport;
  readonly errors: FieldError[];
  readonly warnings: string[];
  /** served versions */
  readonly versions: string[];
  validate(object: string | object, options?: ValidateOptions): Report;
  dispose(): void;
}

export declare class Crdlab {
  /** Resolves when calls can be made: at once, except just after a trap in a browser (the instance is being replaced). */
  ready(): Promise<void>;
  version(): { abi: number; engine: string };
  lint(crd: string | object): CRDReport;
  compile(crd: string | object): CompiledCRD;
  /** The CEL cost report `crdlab cost -o json` prints (static costs, suggestions, per-object runtime costs). */
  cost(crd: string | object, objects?: Array<string | object>): Record<string, unknown>;
}

/** Loads the module: by default the crdlab.wasm shipped with this package. */
export declare function load(
  source?: string | URL | ArrayBuffer | ArrayBufferView | Response | WebAssembly.Module,
  options?: LoadOptions,
): Promise<Crdlab>;
