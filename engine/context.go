package engine

// Bounds of one request: the API server's request body limit and the
// caller's context (deadline, cancellation).

import (
	"context"
	"fmt"

	"github.com/crdlab/crdlab/internal/limits"
)

// MaxRequestBodyBytes is the largest request body the API server reads
// (k8s.io/apiserver's default MaxRequestBodyBytes, 3 MiB): Compile and
// Validate reject a larger CRD or object before decoding it, as the
// handlers' limitedReadBody does. ValidateOptions.MaxBodyBytes changes it for
// objects.
const MaxRequestBodyBytes = limits.MaxRequestBodyBytes

// RequestEntityTooLargeError is the API server's 413 for a body over the
// limit: "Request entity too large: limit is 3145728"
// (apierrors.NewRequestEntityTooLargeError).
type RequestEntityTooLargeError struct {
	Limit int64
}

func (e *RequestEntityTooLargeError) Error() string {
	return fmt.Sprintf("Request entity too large: limit is %d", e.Limit)
}

// bodyTooLarge returns the 413 error when body exceeds limit (0: the
// default; negative: no limit).
func bodyTooLarge(body []byte, limit int64) error {
	if limit == 0 {
		limit = MaxRequestBodyBytes
	}
	if limit > 0 && int64(len(body)) > limit {
		return &RequestEntityTooLargeError{Limit: limit}
	}
	return nil
}

// CompileContext is CompileWithOptions observing ctx: a CRD body over
// MaxRequestBodyBytes is rejected before decoding (a
// *RequestEntityTooLargeError), and when ctx ends before the compilation
// does, the error is ctx's (wrapped: errors.Is(err,
// context.DeadlineExceeded) holds).
//
// The context is checked before the compilation, between versions, before
// each CEL rule (and messageExpression) is compiled, and after: a CRD of
// 10,000 rules stops at the first rule after ctx ends.
func CompileContext(ctx context.Context, crdYAMLorJSON []byte, opts CompileOptions) (*CRD, error) {
	if err := ctxErr(ctx, "compiling the CustomResourceDefinition"); err != nil {
		return nil, err
	}
	c, err := compileWithOptions(ctx, crdYAMLorJSON, opts)
	if err != nil {
		return nil, err
	}
	if err := ctxErr(ctx, "compiling the CustomResourceDefinition"); err != nil {
		return nil, err
	}
	return c, nil
}

// ValidateContext is Validate observing ctx (see Validator.ValidateContext).
func (c *CRD) ValidateContext(ctx context.Context, object []byte, opts ValidateOptions) (*Result, error) {
	if err := checkOneBody(object, opts); err != nil {
		return nil, err
	}
	return c.validateOne(ctx, object, opts)
}

// checkOneBody refuses a stream of several documents (checkOneDocument),
// unless the body is over the limit: it is then rejected before decoding.
func checkOneBody(object []byte, opts ValidateOptions) error {
	if bodyTooLarge(object, opts.MaxBodyBytes) != nil {
		return nil
	}
	return checkOneDocument(object)
}

// validateOne is ValidateContext of one document.
func (c *CRD) validateOne(ctx context.Context, object []byte, opts ValidateOptions) (*Result, error) {
	version := opts.Version
	var body *jsonBody
	if version == "" {
		if bodyTooLarge(object, opts.MaxBodyBytes) != nil {
			return c.validateIn(ctx, "", object, nil, opts)
		}
		body = toJSONBody(object)
		version = c.pickVersion(body)
	}
	return c.validateIn(ctx, version, object, body, opts)
}

func (c *CRD) validateIn(ctx context.Context, version string, object []byte, body *jsonBody, opts ValidateOptions) (*Result, error) {
	v, err := c.Validator(version)
	if err != nil {
		return nil, err
	}
	return v.validateContext(ctx, object, body, opts)
}

// ValidateContext is Validate observing ctx. The CEL rules are evaluated
// with ctx: a rule whose evaluation is interrupted by the end of ctx (its
// comprehensions check every limits.CheckFrequency iterations; every rule
// checks before it starts) fails with an error naming the field path and the
// rule's index, and no further rule runs; the result is otherwise complete.
// When ctx ends outside the rules (decoding, schema validation), the error
// is ctx's, wrapped. A context that can never end (context.Background)
// costs nothing: the evaluation is then the one of Validate.
func (v *Validator) ValidateContext(ctx context.Context, object []byte, opts ValidateOptions) (*Result, error) {
	if err := checkOneBody(object, opts); err != nil {
		return nil, err
	}
	return v.validateContext(ctx, object, nil, opts)
}

func (v *Validator) validateContext(ctx context.Context, object []byte, body *jsonBody, opts ValidateOptions) (*Result, error) {
	if err := ctxErr(ctx, "validating the object"); err != nil {
		return nil, err
	}
	if err := bodyTooLarge(object, opts.MaxBodyBytes); err != nil {
		// Rejected before decoding: only the version checks of validate
		// run (a misuse is still an error).
		if _, verr := v.checkOptions(opts); verr != nil {
			return nil, verr
		}
		return &Result{Pruned: []string{}, Warnings: []string{}, DecodeError: err.Error()}, nil
	}
	res, err := v.validate(ctx, object, body, opts)
	if err != nil {
		return nil, err
	}
	if !res.interrupted {
		if err := ctxErr(ctx, "validating the object"); err != nil {
			return nil, err
		}
	}
	res.ctx, res.interrupted = nil, false
	return res, nil
}

// ctxErr returns ctx's error, wrapped with what was being done, or nil.
// A context that can never end is not asked.
func ctxErr(ctx context.Context, doing string) error {
	if ctx == nil || ctx.Done() == nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", doing, err)
	}
	return nil
}
