package crdvalidation

// RunGoldenCasesForTest lets the external CEL golden test share the golden
// machinery.
var RunGoldenCasesForTest = RunGoldenCases
