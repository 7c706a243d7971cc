package abi

import (
	"github.com/crdlab/crdlab/conversion"
	"github.com/crdlab/crdlab/wire"
)

// conversionReport answers "conversionReview": conversion.Check, the report
// of `crdlab conversion-review -o json`. Inputs that cannot be checked (a
// CRD without a conversion webhook, a request the API server does not
// send) answer DecodeError with package conversion's message.
func conversionReport(r *wire.Request) (interface{}, *wire.Error) {
	if r.Review == "" {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: `"conversionReview" needs "review" (the ConversionReview holding the request)`}
	}
	if e := kubeVersionOf(r); e != nil {
		return nil, e
	}
	response := r.ReviewResponse
	if response == "" {
		response = r.Review
	}
	res, err := conversion.Check(pick(r.CRD, r.CRDBytes), []byte(r.Review), []byte(response), conversion.Options{List: r.List, ListAPIVersion: r.ListAPIVersion, KubeVersion: r.KubeVersion})
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeDecodeError, Message: err.Error()}
	}
	return res, nil
}
