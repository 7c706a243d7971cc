// Package engine is crdlab's public API: it compiles a CustomResourceDefinition
// and validates custom resources against it offline, reproducing what
// kube-apiserver 1.37 (k8s.io/apiextensions-apiserver v0.37.2) does.
//
// Compile mirrors the CRD create path (decoding with the v1 defaults, then
// pkg/registry/customresourcedefinition's Validate and WarningsOnCreate), and
// builds, per served version, what pkg/apiserver/customresource_handler.go's
// getOrCreateServingInfoFor builds: the structural schema with pruned
// defaults, the OpenAPI schema validators (whole object and status), the
// scale and status subresources and the deprecation warnings.
//
// Validate mirrors the request path of a create, update or status update:
// the handlers' decoding with fieldValidation Strict/Warn/Ignore (the
// schemaCoercingDecoder: strict JSON decoding, ObjectMeta coercion, pruning,
// dropping non-nullable nulls, defaulting), the group/version check, the
// owner-reference deduplication, then k8s.io/apiserver's registry
// (rest.BeforeCreate/BeforeUpdate, ValidateCreate/ValidateUpdate) with the CR
// strategy (pkg/registry/customresource strategy.go, validator.go,
// status_strategy.go): PrepareForCreate/PrepareForUpdate, Validate /
// ValidateUpdate (OpenAPI schema, embedded ObjectMeta, list types, then
// x-kubernetes-validations) and the finalizer warnings.
//
// # Files
//
// They follow upstream's:
//
//   - engine.go: the API (Compile and its variants, CRD, Validator,
//     Validate).
//   - serving.go: the per-version validators (getOrCreateServingInfoFor).
//   - handler.go, serializer.go: the request handler and its decoding
//     (customresource_handler.go's schemaCoercingDecoder, the handlers'
//     decode errors), reading the body as runtime/serializer/json does.
//   - store.go: the generic registry store with rest.BeforeCreate and
//     BeforeUpdate.
//   - strategy.go, status_strategy.go, validator.go:
//     pkg/registry/customresource's.
//   - warnings.go: the warning recorder of a response.
//   - context.go: the request body limit and the context variants
//     (CompileContext, ValidateContext).
//   - crdupdate.go: a CRD update (CompileUpdate).
//   - stored.go, converted.go: a stored object read at a version
//     (ReadStored), a converter's answer coerced (CoerceConverted).
//   - document.go, validateall.go: an object document parsed once
//     (ParseDocument, ValidateDocument) and multi-document streams
//     (ValidateAll).
//   - positions.go, report.go: source positions of errors and warnings,
//     and the wire report (NewReport).
//   - kubeversion.go, version.go: the releases (DefaultKubeVersion,
//     SupportedKubeVersions, errorsAt) and Kubernetes-aware version order.
//   - share.go: CompileShare (below).
//
// # Where upstream's steps are
//
// The CRD, once per Compile (upstream: k8s.io/apiextensions-apiserver):
//
//   - YAML→JSON and strict decoding with positions: package engine/crd
//     (decode.go, fill.go), internal/yamljson, internal/yamldoc; the v1
//     defaults (apis/apiextensions/v1/defaults.go): engine/crd's
//     defaults.go.
//   - The registry strategy's PrepareForCreate, Validate, WarningsOnCreate
//     (names, group, scope, versions, conversion, subresources, columns,
//     selectable fields, the schema, CEL rules and their static costs, the
//     defaults pruned and valid): internal/crdvalidation, with
//     internal/objectmeta and internal/names for the CRD's metadata,
//     internal/schema for the structural rules, internal/defaulting's
//     ValidateDefaults (which runs CEL).
//   - An update (rest.BeforeUpdate, PrepareForUpdate, ValidateUpdate,
//     WarningsOnUpdate, ratcheted against the old CRD): crdupdate.go over
//     internal/crdvalidation's update.go.
//   - getOrCreateServingInfoFor: serving.go (structural schema with pruned
//     defaults, OpenAPI validators for the object and status, scale and
//     status, the CEL validator, deprecation warnings).
//   - Reading a stored object at a version (the storage codec: decoding and
//     defaulting at the stored version, the nop converter, the coercion at
//     the target version): stored.go (CRD.ReadStored); a conversion
//     webhook's converted objects coerced: converted.go
//     (CRD.CoerceConverted, for package conversion).
//
// One cel.CompileCache (internal/cel) is created per compile and passed to
// the CRD checks, the default checks and the serving validators; it dies
// with the compile.
//
// An object, per request (upstream: customresource_handler.go,
// registry/customresource, the generic store):
//
//   - the body (serializer.go, internal/yamljson), strict decoding
//     (internal/jsonstrict), decode errors, the group/version check,
//     namespace, Warn-mode warnings: handler.go;
//   - the schemaCoercingDecoder: ObjectMeta coercion (internal/objectmeta,
//     with its allocation-free path for objects that need no change),
//     pruning (internal/pruning, embedded resources included),
//     non-nullable nulls and defaulting (internal/defaulting), owner
//     reference de-duplication: handler.go;
//   - rest.BeforeCreate/BeforeUpdate, conflicts, generation: store.go
//     (internal/unstructured);
//   - the strategy and the status strategy: strategy.go, status_strategy.go;
//     validator.go: TypeMeta, ObjectMeta, the OpenAPI schema
//     (internal/openapi, internal/strfmt, with ratcheting), scale, list
//     types (internal/listtype), then the CEL rules (internal/cel: types
//     from the schema, lazy values, messageExpression, reason, fieldPath,
//     runtime cost per call and per object, transition rules,
//     optionalOldSelf, ratcheting through internal/correlated), under
//     limits.RuntimeCELCostBudget;
//   - the warning recorder (dedup, order): warnings.go.
//
// The result (Result) is the final object, the pruned paths, the decode
// error, the field.ErrorList, the warnings and the runtime cost of every
// rule evaluation; NewReport turns it into wire.Report, the document every
// shell prints or returns.
//
// The 3 MiB body limit (MaxRequestBodyBytes, the 413 "Request entity too
// large: limit is 3145728") is checked by the Validate calls
// (Validator.validateContext, context.go), by ValidateDocument
// (document.go; ValidateOptions.MaxBodyBytes overrides it), and for CRDs
// by Compile, CompileWithOptions, CompileContext and CompileUpdate; the
// CompileCRD functions take a decoded CRD and check no size.
// docs/limits.md documents it.
//
// # Releases and shared compiles
//
// CompileOptions.KubeVersion (UpdateOptions.KubeVersion; default the
// newest) is parsed into an internal/kubeversion Release, kept by the CRD
// and handed to where a behaviour differs (crdvalidation.Options.Release;
// the CEL compile cache, with cel.BaseEnvAt and cel.SchemaDeclTypeAt for
// the metadata.name cap; openapi.NewSchemaValidatorAt and
// NewValidatorFromStructuralAt for formats; internal/objectmeta's *At
// functions for owner references; the functions without At are the newest
// release's). Before
// 1.34, field errors print non-scalar values in Go
// syntax: the errors of a compile or validation are copied once, at its
// end (errorsAt, field.ErrorList.WithGoSyntaxValues).
//
// A CompileShare (share.go) lets several releases' compiles of the same
// CRDs share their release-independent work (crdlab's --kube-version
// matrix, crdtest.Options.Share, upgrade.Options.Share), each piece keyed
// by what it depends on: the decoded CRD by file name and bytes (decoding
// has no release change); the structural schemas and pruned defaults by
// the decoded CRD; compiled patterns by the pattern; CEL compilations by
// rule, messageExpression, environment kind, the environment's library
// option set at that release (library.OptionsMask), the DeclType's content
// digest and the per-call limit. What is compiled per release: the CRD
// validation (warnings, cost checks), the OpenAPI validators, the CEL
// environments and DeclTypes that differ. share_test.go pins that a
// report through a share equals a compile of its own;
// BenchmarkCompileHTTPRouteMatrix measures the gain (HTTPRoute at all seven
// releases: 2.4 times one compile's time and 4.7 times its allocations,
// against 6.7 times the time for separate compiles; releases whose CEL
// environment and estimator are the same compile their rules once). A release change that
// alters decoding or the structural schema must enter the key of what the
// share keeps for it (docKey, the serving map), or move to the
// per-release side.
//
// What a cluster does that cannot be reproduced offline is documented on
// Validate (server-set uid/creationTimestamp, managedFields, random
// generateName suffixes, resourceVersion conflicts).
package engine
