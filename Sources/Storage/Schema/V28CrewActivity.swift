/// The crew list's default order, most recently active first, read from an index of the
/// crews shown instead of sorting every crew: its plan was a scan of `crews` and a sort
/// (`QueryPlanTests`), a cost that grew with every crew the site ever had. The same text on
/// either engine.
enum CrewActivitySchema {
    static let sql = """
        CREATE INDEX crews_activity ON crews(lastActivityAt DESC, id DESC) WHERE hiddenAt IS NULL;
        """
}
