package wire

// OpSpec describes one op of the ABI: its name, the request it takes and
// the result it answers with.
type OpSpec struct {
	// Op is the op's name, the "op" member of its request.
	Op Op
	// Request is a zero value of the op's request type: the members of
	// Request the op reads.
	Request interface{}
	// Result is a zero value of the op's result type, or nil when the
	// result is a type of another package, which ResultOf names.
	Result   interface{}
	ResultOf string
}

// Ops lists every op of ABI version ABIVersion, in the order the module's
// "unknown op" error names them. The module answers an op missing here as
// unknown, and the tests check that every op here is handled by the
// module, declared by the JavaScript bindings (WIRE.Op in
// bindings/js/src/index.js and index.d.ts) and that index.d.ts declares
// its result types. Adding an op starts here (package guest/internal/abi,
// "Adding an op").
var Ops = []OpSpec{
	{Op: OpVersion, Request: VersionRequest{}, Result: VersionResult{}},
	{Op: OpCompile, Request: CompileRequest{}, Result: CompileResult{}},
	{Op: OpLint, Request: CompileRequest{}, Result: LintResult{}},
	{Op: OpValidate, Request: ValidateRequest{}, Result: Report{}},
	{Op: OpValidateAll, Request: ValidateRequest{}, Result: ValidateAllResult{}},
	{Op: OpCost, Request: CostRequest{}, ResultOf: "cost.Report"},
	{Op: OpFree, Request: FreeRequest{}, Result: FreeResult{}},
	{Op: OpUpgrade, Request: UpgradeRequest{}, Result: UpgradeReport{}},
	{Op: OpTest, Request: TestRequest{}, Result: TestReport{}},
	{Op: OpSchema, Request: SchemaRequest{}, Result: SchemaResult{}},
	{Op: OpBench, Request: BenchRequest{}, ResultOf: "cost.BenchReport"},
	{Op: OpConversionReview, Request: ConversionReviewRequest{}, Result: ConversionReport{}},
	{Op: OpComplete, Request: CompleteRequest{}, Result: CompleteResult{}},
	{Op: OpAdmit, Request: AdmitRequest{}, Result: AdmitResult{}},
	{Op: OpApply, Request: ApplyRequest{}, Result: ApplyResult{}},
}

// OpNames is the names of Ops in order, as English: "a, b or c".
func OpNames() string {
	s := ""
	for i, o := range Ops {
		switch {
		case i == 0:
		case i == len(Ops)-1:
			s += " or "
		default:
			s += ", "
		}
		s += string(o.Op)
	}
	return s
}
