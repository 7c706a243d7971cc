// Package dra is Kubernetes' Dynamic Resource Allocation selector
// environment, offline: the CEL expressions with which a DeviceClass and
// every ResourceClaim request select devices (resource.k8s.io), compiled,
// costed and run against a device as k8s.io/dynamic-resource-allocation/cel
// (compile.go, errors.go) and the resource.k8s.io registry validation do.
//
// # The environment
//
// NewEnv(rel, kind, features) is upstream's
// GetCompiler(features).envset.Env(kind) at release rel: the release's base
// CEL environment at its compatibility version (internal/cel's BaseEnvAt:
// new expressions at rel-1, stored ones with every library), plus
// cel.bind (ext.Bindings v0), the device variable of object type
// kubernetes.DRADevice with driver, attributes (domain → id → value),
// capacity (domain → id → quantity) and, where DRAConsumableCapacity is on
// (on by default from 1.36; stored expressions from 1.34),
// allowMultipleAllocations; includes from 1.36 in stored expressions (and
// where DRAListTypeAttributes is on). The declared sizes are upstream's
// (driver 63, domain 63, id 32, a value 64, 32 attributes and capacities),
// so static estimates are upstream's.
//
// Environment.Compile is CompileCELExpression: "compilation failed: …",
// "must evaluate to bool or the unknown type, not …", the program with the
// runtime cost limit of 1,000,000 and the estimated cost. Selector.Matches
// is DeviceMatches: attributes and capacities written without a domain get
// the driver's, a domain the device lacks is an empty map (so a missing
// attribute fails with "no such key: name"), and from 1.37 the allocator's
// guidance is appended to a missing key ("consider using CEL optional
// chaining …"). Validator.ValidateExpression is the registry's check of one selector
// on create (length limit, compile, cost limit) with the API server's texts.
//
// The scheduler compiles selectors in the StoredExpressions environment;
// the API server checks new ones in NewExpressions (internal/builtin's
// resource.k8s.io strategies call Validator.ValidateExpression).
//
// # What is not here
//
// The structured allocator (which devices a claim gets: counts, constraints,
// firstAvailable, admin access, consumable capacity) is not modelled: see
// RATIONALE.md, "DRA: selectors, not allocations". Derived attributes
// (DRADerivedAttributes, alpha 1.37) are not modelled.
package dra
