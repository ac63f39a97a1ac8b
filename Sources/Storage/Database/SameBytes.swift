/// True when `a` and `b` hold the same bytes, compared in the same time whichever byte differs:
/// for codes people type (check-in codes, workplace codes), so a wrong one's timing says nothing.
func sameBytes(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    a.count == b.count && zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
}
