package wasm

import (
	"context"
	"encoding/json"

	"github.com/crdlab/crdlab/wire"
)

// ConversionReviewOptions are the options of ConversionReview (package
// conversion's Options).
type ConversionReviewOptions struct {
	// List says the API server sent the request's objects as one list
	// (always so for several objects), which changes the errors' wording.
	List bool
	// ListAPIVersion is the list's apiVersion, which list errors quote
	// (default: the first object's).
	ListAPIVersion string
	// KubeVersion is the Kubernetes release whose API server checks the
	// answer (see CompileOptions.KubeVersion).
	KubeVersion string
}

// ConversionReview checks a conversion webhook's recorded answer as the API
// server does (conversion.Check): review is the ConversionReview the API
// server sent, response the one the webhook answered (nil: review holds
// both). The report is the document `crdlab conversion-review -o json`
// prints; inputs that cannot be checked (a CRD without a conversion
// webhook, a request the API server does not send) are a *Error with Code
// DecodeError and package conversion's message.
func (r *Runtime) ConversionReview(ctx context.Context, crdYAMLorJSON, review, response []byte, opts ConversionReviewOptions) (*wire.ConversionReport, error) {
	raw, err := r.ConversionReviewRaw(ctx, crdYAMLorJSON, review, response, opts)
	if err != nil {
		return nil, err
	}
	var out wire.ConversionReport
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ConversionReviewRaw is ConversionReview returning the module's bytes:
// json.Marshal of the native conversion.Check report.
func (r *Runtime) ConversionReviewRaw(ctx context.Context, crdYAMLorJSON, review, response []byte, opts ConversionReviewOptions) (json.RawMessage, error) {
	if err := r.requireKubeVersion(ctx, opts.KubeVersion); err != nil {
		return nil, err
	}
	req := wire.ConversionReviewRequest{Op: wire.OpConversionReview, Review: string(review), ReviewResponse: string(response), List: opts.List, ListAPIVersion: opts.ListAPIVersion, KubeVersion: opts.KubeVersion}
	req.CRD, req.CRDBytes = text(crdYAMLorJSON)
	var out json.RawMessage
	if err := r.send(ctx, func(int64) interface{} { return req }, &out); err != nil {
		return nil, err
	}
	return out, nil
}
