// Package v1 is crdlab-markers' test API: a Widget whose markers hold a
// valid rule, a rule that does not compile, a rule over the cost budget,
// an invalid pattern and an unknown format.
// +groupName=example.crdlab.dev
package v1
