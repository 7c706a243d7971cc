/**
 * The wire constants (Go: package github.com/crdlab/crdlab/wire): the ABI
 * version, the op names and the error codes.
 */
export declare const WIRE: {
  readonly ABI_VERSION: 1;
  readonly Op: {
    readonly Version: 'version';
    readonly Compile: 'compile';
    readonly Lint: 'lint';
    readonly Validate: 'validate';
    readonly ValidateAll: 'validateAll';
    readonly Cost: 'cost';
    readonly Free: 'free';
    readonly Schema: 'schema';
    readonly Bench: 'bench';
    readonly Upgrade: 'upgrade';
    readonly Test: 'test';
    readonly ConversionReview: 'conversionReview';
    readonly Complete: 'complete';
    readonly Admit: 'admit';
    readonly Apply: 'apply';
  };
  readonly Code: {
    readonly BadRequest: 'BadRequest';
    readonly DecodeError: 'DecodeError';
    readonly NotFound: 'NotFound';
    readonly Invalid: 'Invalid';
    readonly Panic: 'Panic';
    readonly Timeout: 'Timeout';
    readonly ResponseTooLarge: 'ResponseTooLarge';
    readonly Trap: 'Trap';
    readonly Load: 'Load';
  };
};

/** An op name (the "op" of a request). */
export type Op = (typeof WIRE.Op)[keyof typeof WIRE.Op];

/** An error code: the module's (BadRequest, DecodeError, NotFound, Invalid, Panic, Timeout, ResponseTooLarge) or this package's (Trap, Load). */
export type ErrorCode = (typeof WIRE.Code)[keyof typeof WIRE.Code];

/** The ABI version this package speaks. */
export declare const ABI_VERSION: 1;

/** An error returned by the module, or a failure to reach it. */
export declare class CrdlabError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
}

/** One field error, as kube-apiserver reports it (Go: wire.ErrorReport). */
export interface ErrorReport {
  /** upstream's field.ErrorType, e.g. "FieldValueInvalid" */
  type: string;
  /** the field path, e.g. "spec.replicas" */
  field: string;
  detail: string;
  /** the full rendered error, e.g. "spec.replicas: Invalid value: 15: ..." */
  message: string;
  /** where the field is in the CRD or object document (the nearest existing ancestor for a missing field); absent only without a source */
  position?: Position;
}

/** A place in a document: 1-based line and column, relative to the document given (Go: wire.Position). */
export interface Position {
  line: number;
  column: number;
}

/** One field error (the former name of ErrorReport). */
export type FieldError = ErrorReport;

/** A CRD's validation outcome (Go: wire.CRDReport). */
export interface CRDReport {
  /** the API server's message when it rejects the CRD while decoding (unknown or duplicate fields with crdFieldValidation Strict) */
  decodeError?: string;
  /** where the unknown and duplicate fields are ("file:line:col: unknown field ..."), with Strict or Warn */
  fieldErrorPositions?: string[];
  errors: ErrorReport[];
  warnings: string[];
  /** index for index with warnings: the position of the field a warning names, or null; absent when no warning has one */
  warningPositions?: (Position | null)[];
}

/** One object's validation outcome (Go: wire.ObjectReport). */
export interface ObjectReport {
  /** the final object (pruned, defaulted), or null if the request failed while decoding */
  result: unknown;
  /** for an update, the stored object as read back from storage (pruned, defaulted) */
  oldResult?: unknown;
  pruned: string[];
  decodeError?: string;
  /** the position of the first (unknown or duplicate) field the decoding error names */
  decodeErrorPosition?: Position;
  errors: ErrorReport[];
  warnings: string[];
  /** as CRDReport.warningPositions */
  warningPositions?: (Position | null)[];
}

/** The document `crdlab validate -o json` prints, the result of "validate" (Go: wire.Report). `object` is null when the CRD is invalid. */
export interface Report {
  crd: CRDReport;
  object: ObjectReport | null;
}

/** The result of "version" (Go: wire.VersionResult). */
export interface VersionResult {
  abi: number;
  engine: string;
  /** the Kubernetes releases the module reproduces, newest first ("1.37", "1.36", ...): the values of the kubeVersion options */
  kubeVersions: string[];
  /** the release of a call without kubeVersion (the newest) */
  defaultKubeVersion: string;
}

/** The result of "compile" (Go: wire.CompileResult). */
export interface CompileResult {
  handle: number;
  crd: CRDReport;
  /** served versions, or null when none is served */
  versions: string[] | null;
  /** the Kubernetes release the handle reproduces ("1.36") */
  kubeVersion: string;
}

/** The result of "lint", the document `crdlab lint -o json` prints (Go: wire.LintResult). */
export interface LintResult {
  crd: CRDReport;
}

/** One document of a validateAll stream (Go: wire.DocumentReport): its report, or the error validate() would have thrown for it alone. */
export interface DocumentReport {
  /** 0-based index in the stream, empty documents not counted */
  index: number;
  /** 1-based line where the document starts */
  line: number;
  report?: Report;
  error?: { code: string; message: string };
}

/** The CEL cost limits of the API server (Go: cost.Limits). */
export interface CostLimits {
  perExpression: number;
  perCRD: number;
  perCall: number;
  perObject: number;
}

/** A bound that would bring an expression under its limit (Go: cost.Suggestion). */
export interface CostSuggestion {
  keyword: 'maxItems' | 'maxProperties' | 'maxLength';
  path: string;
  dataPath: string;
  max: number;
  current?: number;
  target: 'perExpression' | 'perCRD' | 'schemaTotal';
  estimatedCost: number;
}

/** Which part of an over-limit expression or of its schema makes the estimate large (Go: cost.Advice). */
export interface CostAdvice {
  kind: string;
  subExpression?: string;
  estimatedCostWithout?: number;
  move?: CostSuggestion;
  message: string;
}

/** One x-kubernetes-validations rule's estimated cost (Go: cost.Rule). */
export interface CostRule {
  schema: string;
  path: string;
  dataPath: string;
  index: number;
  field: string;
  errorPath: string;
  expression: string;
  cardinality: number;
  cardinalityBounded: boolean;
  estimate: { min?: number; max: number };
  estimatedCost: number;
  limitShare: number;
  overBudget: boolean;
  contributesToTotalOverLimit: boolean;
  compileError?: string;
  suggestions?: CostSuggestion[];
  suggestionNote?: string;
  advice?: CostAdvice[];
  runtimeCost?: number[];
  evaluations?: number[];
}

/** The total estimated cost of one version's schema (Go: cost.SchemaTotal). */
export interface CostSchemaTotal {
  schema: string;
  totalEstimatedCost: number;
  limitShare: number;
  overLimit: boolean;
  suggestions?: CostSuggestion[];
  suggestionNote?: string;
}

/** The runtime cost of the rules on one object (Go: cost.ObjectCosts). */
export interface CostObject {
  index: number;
  /** where the object comes from (e.g. its file), when the caller set it */
  source?: string;
  kind?: string;
  name?: string;
  version?: string;
  totalCost: number;
  budgetShare: number;
  overBudget: boolean;
  errors: string[];
  note?: string;
  error?: string;
}

/** The report of cost(), the document `crdlab cost -o json` prints (Go: cost.Report). */
export interface CostReport {
  crd: string;
  limits: CostLimits;
  /** whether the API server accepts the CRD */
  accepted: boolean;
  errors: ErrorReport[];
  costErrors: ErrorReport[];
  rules: CostRule[];
  schemas: CostSchemaTotal[];
  totalEstimatedCost: number;
  totalLimitShare: number;
  objects?: CostObject[];
  suggestionsTruncated?: boolean;
}

/** The result of "validateAll" (Go: wire.ValidateAllResult); CompiledCRD.validateAll returns its documents. */
export interface ValidateAllResult {
  documents: DocumentReport[];
}

/** The JSON Schema of one served version (Go: wire.SchemaDocument). */
export interface SchemaDocument {
  group: string;
  version: string;
  kind: string;
  /** the document's path in the layout asked for: "crontab_v1.json" (kubeconform) or "stable.example.com/crontab_v1.json" (catalog) */
  fileName: string;
  /** what the API server checks that JSON Schema cannot express (CEL rules, list-map keys, ...), one line each */
  unexpressed: string[];
  /** the JSON Schema as text, byte for byte what `crdlab schema` writes: JSON.parse it for the value */
  document: string;
}

/** The result of schema() (Go: wire.SchemaResult): no schemas when the API server rejects the CRD (its errors are in crd). */
export interface SchemaResult {
  crd: CRDReport;
  schemas: SchemaDocument[];
}

export interface SchemaOptions {
  /** the served versions to export, in this order (default: every served version) */
  versions?: string[];
  /** JSON Schema draft: "2020-12" (default) or "07" */
  draft?: '2020-12' | '07';
  /** additionalProperties: false where the API server prunes unknown fields (models --field-validation=Strict) */
  strict?: boolean;
  /** how fileName is spelled: "kubeconform" (default, {kind}_{version}.json) or "catalog" ({group}/{kind}_{version}.json) */
  layout?: 'kubeconform' | 'catalog';
  /** the CRD create's fieldValidation (CRD text only; a CompiledCRD keeps its own) */
  crdFieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** the Kubernetes release of the verdict in `crd` (CRD text only; a CompiledCRD keeps its own); the documents are the same at every release */
  kubeVersion?: string;
  /** the call's time limit inside the module in milliseconds (0 or absent: none) */
  timeoutMs?: number;
}

export interface BenchOptions {
  /** milliseconds spent timing each figure (one rule on one object, or one phase); default 20, at most 10000 */
  durationMs?: number;
  /** timed batches per figure (median, p10 and p90 over them); default 11, at most 1000 */
  samples?: number;
  /** the CRD's fieldValidation (CRD text only), as for cost() */
  crdFieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** bounds the whole benchmark in milliseconds (checked between figures: the error is then Timeout) */
  timeoutMs?: number;
}

/** The wall time of one operation over several batches (Go: cost.Timing). Times come from the host's clock: in browsers performance.now(), coarsened to 5 µs - 1 ms. */
export interface BenchTiming {
  iterations: number;
  medianNs: number;
  p10Ns: number;
  p90Ns: number;
  allocsPerOp: number;
  bytesPerOp: number;
}

/** Where a benchmark ran (Go: cost.Machine): goos "wasip1", goarch "wasm" in the module. */
export interface BenchMachine {
  goos: string;
  goarch: string;
  cpus: number;
  goVersion: string;
}

/** One rule or messageExpression on one object (Go: cost.RuleBench). */
export interface RuleBench {
  /** index of the object in BenchReport.objects */
  object: number;
  /** index of the expression in the cost report's rules (cost()) */
  rule: number;
  errorPath: string;
  dataPath: string;
  field: string;
  expression: string;
  /** the API server's static estimate and its share of the per-expression limit */
  estimatedCost: number;
  limitShare: number;
  /** how many times the expression runs on the object (0: not evaluated) */
  evaluations: number;
  /** runtime cost units of all the evaluations */
  cost: number;
  /** the wall time of all the evaluations on the object (one operation) */
  timing?: BenchTiming;
  perEvaluationNs?: number;
  nsPerCostUnit?: number;
  error?: string;
}

/** The wall time of one phase of an object's validation (Go: cost.PhaseBench). */
export interface PhaseBench {
  phase: 'decode' | 'prune' | 'default' | 'openapi' | 'cel' | 'request';
  timing: BenchTiming;
}

/** One object's validation, phase by phase (Go: cost.ObjectBench). */
export interface ObjectBench {
  index: number;
  source?: string;
  kind?: string;
  name?: string;
  version?: string;
  phases?: PhaseBench[];
  note?: string;
  /** why the object was not benchmarked (e.g. of another kind) */
  error?: string;
}

/** The result of bench(), the document `crdlab bench -o json` prints for one CRD (Go: cost.BenchReport). */
export interface BenchReport {
  crd: string;
  machine: BenchMachine;
  rules: RuleBench[];
  objects: ObjectBench[];
  requestNote?: string;
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
  /** the call's time limit inside the module in milliseconds (0 or absent: none) */
  timeoutMs?: number;
}

export interface CompileOptions {
  /** the CRD create's fieldValidation; default "Strict", as kubectl sends */
  crdFieldValidation?: 'Strict' | 'Warn' | 'Ignore';
  /** names the CRD in fieldErrorPositions */
  filename?: string;
  /** the call's time limit inside the module in milliseconds (0 or absent: none) */
  timeoutMs?: number;
  /** the CRD in the cluster: compile or lint the update of it (crdlab lint --old, validate --old-crd) */
  oldCrd?: string | object;
  /** with oldCrd: its status.storedVersions (default: its own status, else its storage version) */
  storedVersions?: string[];
  /**
   * the Kubernetes release whose API server is reproduced, "1.<minor>" (one
   * of version().kubeVersions; default version().defaultKubeVersion), as
   * `--kube-version`; an unsupported one throws CrdlabError BadRequest
   */
  kubeVersion?: string;
}

/** The API server's answer to one request of an upgrade, without the object (Go: wire.RequestReport). */
export interface RequestReport {
  allowed: boolean;
  decodeError?: string;
  errors: ErrorReport[];
  warnings: string[];
}

/** A stored object read and written back at one version of the updated CRD (Go: wire.StoredReadReport). */
export interface StoredReadReport {
  version: string;
  decodeError?: string;
  /** stored fields the new CRD drops on read (data lost at the next write) */
  pruned: string[];
  /** fields defaulting sets on read under the new CRD only */
  defaulted: string[];
  /** writing the object back unchanged (ratcheting applies) */
  noOpUpdate?: RequestReport;
  /** creating the object afresh (no ratcheting) */
  create?: RequestReport;
}

/** One stored object of an upgrade (Go: wire.StoredObjectReport). */
export interface StoredObjectReport {
  source: string;
  name: string;
  storedVersion: string;
  safe: boolean;
  skipped?: string;
  reads: StoredReadReport[];
}

/** One finding of the compatibility diff (Go: wire.SchemaChange). */
export interface SchemaChange {
  version?: string;
  fromVersion?: string;
  path?: string;
  kind: string;
  severity: 'breaking' | 'warning' | 'info';
  message: string;
}

/** The result of upgrade(), the document `crdlab upgrade -o json` prints (Go: wire.UpgradeReport). */
export interface UpgradeReport {
  safe: boolean;
  /** the API server's verdict on the CRD update */
  crdUpdate: CRDReport;
  oldStorageVersion: string;
  newStorageVersion: string;
  storedVersions: string[];
  objects: StoredObjectReport[];
  changes: SchemaChange[];
}

export interface UpgradeOptions {
  /** names of the objects in the report, index for index (default "objects[i]") */
  sources?: string[];
  /** the old CRD's status.storedVersions */
  storedVersions?: string[];
  /** a breaking schema change makes the upgrade unsafe */
  failOnBreaking?: boolean;
  /** the Kubernetes release of both CRDs and the update (as CompileOptions.kubeVersion) */
  kubeVersion?: string;
}

/** The API server's verdict on a conversion webhook's answer, the document `crdlab conversion-review -o json` prints (Go: wire.ConversionReport). */
export interface ConversionReport {
  /** the ConversionReview version of the exchange: v1 or v1beta1 */
  reviewVersion: string;
  uid: string;
  desiredAPIVersion: string;
  /** the objects were converted as one list */
  list: boolean;
  /** the API server accepts the answer */
  accepted: boolean;
  /** accepted, and every converted object validates at the target version */
  valid: boolean;
  /** the API server's error, as a client gets it ("Error from server: ...") */
  error?: string;
  /** the converted objects as the API server uses them; empty when rejected */
  objects: ConvertedObject[];
}

/** One converted object (Go: wire.ConvertedObject). */
export interface ConvertedObject {
  /** its index in request.objects */
  index: number;
  name?: string;
  namespace?: string;
  /** the object as the API server goes on to use it: metadata restored, pruned by the target version's schema */
  object: Record<string, unknown>;
  /** paths of the webhook's fields the target version's schema drops */
  pruned: string[];
  /** errors of a create of the converted object at the target version (an extra check, not made on conversion) */
  errors: string[];
  /** the API server's message for errors, as kubectl prints it */
  invalid?: string;
  warnings: string[];
}

export interface ConversionReviewOptions {
  /** the objects were converted as one list (always so for several objects): changes the errors' wording */
  list?: boolean;
  /** the list's apiVersion, which list errors quote (default: the first object's) */
  listAPIVersion?: string;
  /** the Kubernetes release whose API server checks the answer (as CompileOptions.kubeVersion) */
  kubeVersion?: string;
}

/** The result of "complete" (Go: wire.CompleteResult). */
export interface CompleteResult {
  /** where the name typed after the dot starts in the expression (UTF-16 offset) */
  from: number;
  /** the cursor: an option's label replaces expression[from, to) */
  to: number;
  /** the receiver's CEL type, e.g. "list(string)"; "" when nothing completes */
  type: string;
  /** the receiver's fields, then its functions and macros; empty when nothing completes */
  options: CompletionOption[];
}

/** One proposal of "complete" (Go: wire.CompletionOption). */
export interface CompletionOption {
  /** the text to insert: a field as CEL spells it (x__dash__y), a function or macro name */
  label: string;
  /** "property", "method", "macro" or "variable" (a policy's or a macro's variable, where an identifier starts) */
  kind: string;
  /** the field's CEL type or the function's signature */
  detail: string;
  /** the field's description, or its schema name when CEL spells it differently */
  info?: string;
}

export interface CompleteOptions {
  /** the cursor in the expression (UTF-16 offset); default its end */
  cursor?: number;
  /** the node is openAPIV3Schema: self has apiVersion, kind and metadata */
  root?: boolean;
}

/** One case of a test run (Go: wire.TestCaseResult). */
export interface TestCaseResult {
  /** "<suite>/<onCreate|onUpdate|sequence|apply|admission>/<case>" */
  name: string;
  file: string;
  line: number;
  passed: boolean;
  /** why the case failed: the unified diff of expected and stored object, or the error */
  message?: string;
  seconds: number;
  /** an admission case's outcome (tests.admission) */
  admission?: AdmissionOutcome;
}

/** A suite file that could not be run (Go: wire.TestLoadError). */
export interface TestLoadError {
  file: string;
  error: string;
}

/** The result of test(), the document `crdlab test -o json` prints (Go: wire.TestReport). */
export interface TestReport {
  results: TestCaseResult[];
  loadErrors: TestLoadError[];
  passed: number;
  failed: number;
  seconds: number;
}

export interface TestOptions {
  /** suite files or directories of `files` to run (default all) */
  paths?: string[];
  /** CRD files or directories of `files` given as --crd */
  crds?: string[];
  /** a regular expression (Go syntax) on case names */
  run?: string;
  /** the Kubernetes release every suite runs at, overriding the suites' own kubeVersion (as CompileOptions.kubeVersion) */
  kubeVersion?: string;
  /** the release of the suites that name no kubeVersion (crdlab test's .crdlab.yaml); kubeVersion overrides it */
  defaultKubeVersion?: string;
}

/** One request of apply(): a step of `crdlab apply`'s steps file. */
export interface ApplyStep {
  /** the fieldManager (required for an Apply) */
  manager?: string;
  operation: 'Apply' | 'Update' | 'Delete';
  force?: boolean;
  subresource?: '' | 'status';
  /** the applied configuration or the updated object (not for Delete) */
  object?: object | string;
}

export interface ApplyOptions {
  /** the object as stored before the first step, with its managedFields */
  stored?: string | object;
  /** the first step's time, RFC 3339 (default 2026-01-01T00:00:00Z; one second more per step) */
  time?: string | Date;
  /** the updates' fieldValidation (default Strict) */
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
}

/** The result of apply(), one entry per step (Go: wire.ApplyResult). */
export interface ApplyResult {
  steps: ApplyStepResult[];
}

/** One step's outcome (Go: wire.ApplyStepResult). */
export interface ApplyStepResult {
  /** the stored object after the step (unchanged when it failed; null when there is none) */
  object: Record<string, unknown> | null;
  managedFields: ManagedFieldsEntry[];
  /** the 409 message of a conflicting apply */
  conflict?: string;
  conflicts?: ApplyConflict[];
  /** any other refusal's message */
  error?: string;
  /** the HTTP status of a failed step */
  code?: number;
  warnings?: string[];
  /** the stored object's leaf fields and who owns each */
  owners: FieldOwner[];
}

/** One metadata.managedFields entry (Go: wire.ManagedFieldsEntry). */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** One conflicting field of a 409 (Go: wire.ApplyConflict). */
export interface ApplyConflict {
  /** 'conflict with "mgr" using group/version' */
  message: string;
  /** the field path, e.g. ".spec.image" */
  field: string;
}

/** A leaf field and its owners (Go: wire.FieldOwner). */
export interface FieldOwner {
  /** e.g. '.spec.ports[name="http"].port' */
  path: string;
  value: unknown;
  /** "manager (Operation)" or "manager (Operation, subresource)"; empty when nobody owns it */
  owners: string[];
}

export interface LoadOptions {
  /** where the module's stderr lines go (default console.error) */
  stderr?: (line: string) => void;
  /** the module's environment variables, e.g. { GOGC: '400' } (default none: Go's GOGC=100) */
  env?: Record<string, string>;
}

export interface AdmitOptions extends ValidateOptions {
  /** CREATE (default; UPDATE with old) or DELETE */
  operation?: 'CREATE' | 'UPDATE' | 'DELETE';
  /** the requesting user (default kubernetes-admin in system:masters) */
  user?: string;
  /** the user's groups (default system:authenticated with user) */
  groups?: string[];
}

/** what kube-apiserver's ValidatingAdmissionPolicy plugin decided */
export interface AdmissionOutcome {
  allowed: boolean;
  policy?: string;
  binding?: string;
  message?: string;
  reason?: string;
  code?: number;
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
  /** the policy/binding pairs that applied */
  evaluated?: string[];
  /** crdlab's remarks on what it does not model */
  notes?: string[];
  /** a CRD update's webhooks (CLI lint --old and upgrade), each called or skipped */
  webhooks?: WebhookCall[];
}

/** whether one admission webhook is called for a request (matched, never called; its recorded answer applied when given) */
export interface WebhookCall {
  configuration: string;
  /** "mutating" or "validating" */
  type: string;
  webhook: string;
  called: boolean;
  /** the resource and kind it is called with (another version under matchPolicy Equivalent) */
  calledWith?: WebhookTarget;
  /** why it is not called */
  skipped?: string;
  /** the API server's error failing the request before the call; code its HTTP code */
  error?: string;
  code?: number;
  /** what the API server makes of its recorded AdmissionReview answer (--webhook-response) */
  answer?: WebhookAnswer;
}

/** what the API server makes of a called webhook's recorded AdmissionReview answer */
export interface WebhookAnswer {
  /** "allowed", "patched", "denied", "failed" or "ignored" (failed, let through by failurePolicy Ignore) */
  outcome: string;
  /** the API server's error (denied, failed) or the error let through (ignored); reason and code its status */
  message?: string;
  reason?: string;
  code?: number;
  warnings?: string[];
  /** "<webhook>/<key>" and the dispatcher's mutation.webhook.admission.k8s.io/... annotations */
  auditAnnotations?: Record<string, string>;
}

/** a resource and kind a webhook is called with */
export interface WebhookTarget {
  group: string;
  version: string;
  resource: string;
  subResource?: string;
  apiVersion: string;
  kind: string;
}

/** the result of admit: the object's report (of the mutated object when a mutation changed it), the mutating policies' outcome when one's binding matched, and, for a valid object, the validating admission outcome */
export interface AdmitResult {
  /** report.object is absent when a mutating policy failed the request */
  report: Report;
  mutation?: MutationOutcome;
  admission?: AdmissionOutcome;
}

/** what kube-apiserver's MutatingAdmissionPolicy plugin did */
export interface MutationOutcome {
  /** false when a policy's error failed the request (nothing is validated then) */
  allowed: boolean;
  policy?: string;
  binding?: string;
  message?: string;
  reason?: string;
  code?: number;
  /** the mutated object as validation received it (absent when nothing changed it) */
  object?: Record<string, unknown>;
  /** the mutations that ran, in order */
  mutations?: AppliedMutation[];
  /** the reinvocation pass ran */
  reinvoked?: boolean;
  /** crdlab's remarks on what it does not model */
  notes?: string[];
}

/** one mutation of a MutatingAdmissionPolicy that ran */
export interface AppliedMutation {
  policy: string;
  binding: string;
  /** the param object ("namespace/name"), empty without */
  param?: string;
  /** its index in the policy's spec.mutations */
  mutation: number;
  patchType: string;
  /** it ran in the reinvocation pass */
  reinvocation?: boolean;
  /** the JSON pointers of the fields it added, changed or removed */
  changed?: string[];
  /** its error (it changed nothing) */
  error?: string;
}

export declare class CompiledCRD {
  readonly report: CRDReport;
  readonly errors: ErrorReport[];
  readonly warnings: string[];
  /** served versions */
  readonly versions: string[];
  /** the Kubernetes release this CRD was compiled for ("1.36"): every validation through it is that release's */
  readonly kubeVersion: string;
  validate(object: string | object, options?: ValidateOptions): Report;
  /** Validates every document of a multi-document YAML stream; validate() refuses a stream. */
  validateAll(stream: string, options?: ValidateOptions): DocumentReport[];
  /** Runs mutating admission policies on one object, validates it (mutated), then runs validating admission policies on it (policies: a YAML stream of policies, bindings, params, Namespaces). */
  admit(object: string | object, policies: string, options?: AdmitOptions): AdmitResult;
  /** CEL completion in an expression of an admission policy (policy: its YAML or JSON document); object is typed by this CRD at the version the policy matches. */
  completePolicy(policy: string, expression: string, options?: Omit<CompleteOptions, 'root'>): CompleteResult;
  /** The JSON Schema export of this CRD (crdFieldValidation is the CRD's own). */
  schema(options?: Omit<SchemaOptions, 'crdFieldValidation' | 'kubeVersion'>): SchemaResult;
  /** The benchmark of this CRD's CEL rules on objects. */
  bench(objects: Array<string | object>, options?: Omit<BenchOptions, 'crdFieldValidation'>): BenchReport;
  /** Server-side apply requests by field managers against one object, as `crdlab apply` sends them. */
  apply(steps: string | ApplyStep[], options?: ApplyOptions): ApplyResult;
  dispose(): void;
}

export declare class Crdlab {
  /** Resolves when calls can be made: at once, except just after a trap in a browser (the instance is being replaced). */
  ready(): Promise<void>;
  version(): VersionResult;
  lint(crd: string | object, options?: CompileOptions): CRDReport;
  compile(crd: string | object, options?: CompileOptions): CompiledCRD;
  /** The CEL cost report `crdlab cost -o json` prints (static costs, suggestions, per-object runtime costs). */
  cost(crd: string | object, objects?: Array<string | object>, options?: Pick<CompileOptions, 'crdFieldValidation' | 'kubeVersion'>): CostReport;
  /** The JSON Schema of the served versions, each document byte for byte what `crdlab schema` writes. */
  schema(crd: string | object | CompiledCRD, options?: SchemaOptions): SchemaResult;
  /** Times each CEL rule (cost units beside wall time per evaluation) and each validation phase: `crdlab bench -o json`. */
  bench(crd: string | object | CompiledCRD, objects?: Array<string | object>, options?: BenchOptions): BenchReport;
  /** The upgrade report `crdlab upgrade -o json` prints: the CRD update's verdict, the stored objects under the new CRD, the schema diff. */
  upgrade(oldCrd: string | object, newCrd: string | object, objects?: Array<string | object>, options?: UpgradeOptions): UpgradeReport;
  /** Runs test suites held in memory (path → text of suites and CRDs): the report `crdlab test -o json` prints. */
  test(files: Record<string, string | Uint8Array> | Map<string, string | Uint8Array>, options?: TestOptions): TestReport;
  /**
   * A conversion webhook's recorded answer checked as the API server checks
   * it: `crdlab conversion-review -o json`. `review` holds the request the
   * API server sent; `response` the webhook's answer (default: `review`
   * holds both).
   */
  conversionReview(crd: string | object, review: string | object, response?: string | object, options?: ConversionReviewOptions): ConversionReport;
  /**
   * CEL completion in a rule: what may follow "<receiver>." at the cursor,
   * given the schema node that carries the rule (self). The playground's
   * and `crdlab lsp`'s completion.
   */
  complete(schemaNode: string | object, expression: string, options?: CompleteOptions): CompleteResult;
}

/** Loads the module: by default the crdlab.wasm shipped with this package. */
export declare function load(
  source?: string | URL | ArrayBuffer | ArrayBufferView | Response | WebAssembly.Module,
  options?: LoadOptions,
): Promise<Crdlab>;
