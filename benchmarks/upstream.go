package benchmarks

import (
	"fmt"

	"github.com/crdlab/crdlab/conformance/upstream"
	"github.com/crdlab/crdlab/wire"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// UpstreamCRD is a CRD compiled by upstream's code: what kube-apiserver
// holds after accepting the CRD and building its serving info. Both sides
// are the differential suite's oracle, conformance/upstream.
type UpstreamCRD struct {
	Errors   field.ErrorList
	Warnings []string

	served *upstream.Served
}

// UpstreamCompile runs what kube-apiserver runs for a CRD create and for
// serving it: strict decoding into apiextensions.k8s.io/v1 with defaults,
// conversion to internal and the CRD strategy's validation (which compiles
// every CEL rule and estimates its cost) — upstream.DecodeCRD and CreateCRD
// — then, when the CRD is accepted, what getOrCreateServingInfoFor builds
// per version (upstream.Serve: structural schemas with pruned defaults,
// schema validators, the strategies, whose CEL validators are compiled).
func UpstreamCompile(data []byte) (*UpstreamCRD, error) {
	v1crd, err := upstream.DecodeCRD(data)
	if err != nil {
		return nil, err
	}
	created, err := upstream.CreateCRD(v1crd)
	if err != nil {
		return nil, err
	}
	out := &UpstreamCRD{Errors: created.Errors, Warnings: created.Warnings}
	if len(created.Errors) > 0 {
		return out, nil
	}
	if out.served, err = upstream.Serve(created); err != nil {
		return nil, err
	}
	return out, nil
}

// Validate runs a create request with fieldValidation=Strict (kubectl's
// default) for version ("" = the storage version) through
// upstream.Served.Request: the handler's decoding (ObjectMeta extraction,
// pruning, ObjectMeta coercion, defaulting), then rest.BeforeCreate's
// PrepareForCreate, ValidateCreate (the strategy's ObjectMeta, OpenAPI,
// list-type and CEL validation) and WarningsOnCreate. HTTP, admission and
// storage are left out, as on crdlab's side.
func (c *UpstreamCRD) Validate(body []byte, version string) (*wire.ObjectReport, error) {
	if len(c.Errors) > 0 {
		return nil, fmt.Errorf("the CRD is invalid: %v", c.Errors.ToAggregate())
	}
	if version == "" {
		version = c.served.StorageVersion()
	}
	return c.served.Request(upstream.Request{Object: body, Version: version})
}
