/// Elapsed seconds at each kilometre of a run read from a GPX file with times, as
/// "301,598,…" (stored tracks keep no times, so splits are worked out at upload).
enum SplitsSchema {
    static func sql(_ t: SchemaDialect) -> String {
        "ALTER TABLE records ADD COLUMN splits \(t.text) CHECK (length(splits) <= 8000);"
    }
}
