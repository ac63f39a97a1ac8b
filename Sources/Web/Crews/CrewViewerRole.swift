import Storage

extension App {
    /// The signed-in member's role in `crew`: nil for a visitor or someone outside it.
    func viewerRole(_ crew: Crew, _ context: RequestContext) throws -> CrewRole? {
        try context.user.flatMap { try database.crews.crewRole(crewID: crew.storedID, userID: $0.storedID) }
    }
}
