//go:build !versions_oracle

package upstream

import (
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	_ "k8s.io/kubernetes/pkg/apis/certificates/install"
	_ "k8s.io/kubernetes/pkg/apis/coordination/install"
	_ "k8s.io/kubernetes/pkg/apis/discovery/install"
	_ "k8s.io/kubernetes/pkg/apis/events/install"
	_ "k8s.io/kubernetes/pkg/apis/flowcontrol/install"
	_ "k8s.io/kubernetes/pkg/apis/node/install"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	_ "k8s.io/kubernetes/pkg/apis/rbac/install"
	_ "k8s.io/kubernetes/pkg/apis/storage/install"
)

// DecodeBuiltin decodes a create's body as kube-apiserver 1.37's handler
// does for its kind (legacyscheme's codecs: the strict serializer for
// Strict and Warn, then conversion to the internal version), whatever the
// kind: the 400 message (transformDecodeError's text, "" when it decodes)
// and the warnings of Warn. No strategy runs.
func DecodeBuiltin(body []byte, fieldValidation string) (decodeError string, warns []string, err error) {
	if fieldValidation == "" {
		fieldValidation = metav1.FieldValidationStrict
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(body, &tm); err != nil {
		return "", nil, err
	}
	w := &warnings{}
	_, _, msg, err := decodeBuiltin(body, schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind), fieldValidation, w)
	if err != nil {
		return "", nil, err
	}
	return msg, w.list, nil
}
