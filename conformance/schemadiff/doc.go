// Package schemadiff compares crdlab's structural-schema, list-type and ObjectMeta packages with upstream's, function by function, on the same inputs.
package schemadiff
