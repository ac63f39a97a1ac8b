import Foundation
import Geo

/// Where meetups meet: the last point a crew or a host used, and the meetups and crews near a
/// point. Near searches take the points in a bounding box on the indexed coordinates
/// (`meetups_place`), then keep those within the exact distance, nearest first.
extension MeetupStore {
    /// The meeting point of the crew's newest meetup that has one, or else the host's.
    public func lastMeetupPoint(crewID: Int64?, hostID: Int64) throws -> Coordinate? {
        try database.readRows { connection in
            for (column, id) in [("crewID", crewID), ("hostID", hostID)] {
                guard let id else { continue }
                let found = try connection.fetchAll("""
                    SELECT latitude, longitude FROM meetups WHERE \(column) = ? AND latitude IS NOT NULL AND longitude IS NOT NULL
                    ORDER BY id DESC LIMIT 1
                    """, [id]) { Coordinate(latitude: try $0.decode("latitude"), longitude: try $0.decode("longitude")) }
                if let point = found.first ?? nil { return point }
            }
            return nil
        }
    }

    /// Upcoming meetups matching `filter` within `radius` metres of `point`, nearest first,
    /// with their distances; at most `limit`.
    ///
    /// The search widens from a small circle, doubling until it holds `limit` meetups or
    /// reaches `radius`: a meetup outside a circle is farther than every one inside it, so the
    /// nearest `limit` are found without reading every meetup in a dense city. (Reading the
    /// whole circle first made `/meetups?near=…&radius=3` cost twice as much on a site of
    /// 20,000 meetups as on one of 200.)
    public func meetups(_ filter: MeetupFilter, near point: Coordinate, radius: Double, viewerID: Int64?, limit: Int = 50, now: Date = Date())
        throws -> [(meetup: Meetup, meters: Double)]
    {
        var reach = min(radius, AppDatabase.nearestFirstReach)
        return try database.readRows { connection in
            var nearest: [(id: Int64, meters: Double)] = []
            while true {
                var filter = filter
                filter.area = point.boundingBox(meters: reach)
                let (conditions, arguments) = database.meetupConditions(filter, viewerID: viewerID, after: nil, now: now)
                let places = try connection.fetchAll("SELECT \(MeetupPoint.selection.bare) FROM meetups WHERE \(conditions) LIMIT ?",
                                                     arguments + [AppDatabase.nearCandidates]) { row -> (id: Int64, meters: Double)? in
                    let candidate = try MeetupPoint(row: row)
                    guard let place = candidate.place else { return nil }
                    let meters = point.distance(to: place)
                    return meters <= reach ? (candidate.id, meters) : nil
                }
                nearest = places.compactMap { $0 }.sorted { ($0.meters, $0.id) < ($1.meters, $1.id) }
                if nearest.count >= limit || reach >= radius { break }
                reach = min(radius, reach * 2)
            }
            nearest = Array(nearest.prefix(limit))
            guard !nearest.isEmpty else { return [] }
            let distances = Dictionary(nearest.map { ($0.id, $0.meters) }, uniquingKeysWith: { first, _ in first })
            let meetups = try connection.fetchAll("SELECT \(Meetup.selection.bare) FROM meetups WHERE id IN (\(connection.idList("?")))",
                                                  [SQLConnection.jsonArray(nearest.map(\.id))]) { try Meetup(row: $0, startingAt: 0) }
            return meetups.compactMap { meetup in meetup.id.flatMap { distances[$0] }.map { (meetup, $0) } }
                .sorted { ($0.1, $0.0.id ?? 0) < ($1.1, $1.0.id ?? 0) }
        }
    }

    /// Crews with a meetup (past or upcoming, visible to all) within `radius` metres of
    /// `point`, by their nearest meeting point; at most `limit`.
    public func crews(near point: Coordinate, radius: Double, limit: Int = 50) throws -> [(crew: Crew, meters: Double)] {
        let box = point.boundingBox(meters: radius)
        return try database.readRows { connection in
            let places = try connection.fetchAll("""
                SELECT \(MeetupPoint.selectList(id: "crewID")) FROM meetups
                WHERE latitude IS NOT NULL AND latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?
                    AND crewID IS NOT NULL AND hiddenAt IS NULL
                LIMIT ?
                """, [box.latitudes.lowerBound, box.latitudes.upperBound, box.longitudes.lowerBound, box.longitudes.upperBound, AppDatabase.nearCandidates]) {
                let candidate = try MeetupPoint(row: $0)
                return (candidate.id, candidate.place)
            }
            var nearest: [Int64: Double] = [:]
            for (crewID, place) in places {
                guard let place else { continue }
                let meters = point.distance(to: place)
                if meters <= radius, meters < nearest[crewID] ?? .infinity { nearest[crewID] = meters }
            }
            let chosen = nearest.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.prefix(limit)
            guard !chosen.isEmpty else { return [] }
            // The crews in one read, not one each.
            let marks = Array(repeating: "?", count: chosen.count).joined(separator: ", ")
            let crews = try connection.fetchAll("SELECT \(Crew.selection.bare) FROM crews WHERE id IN (\(marks)) AND hiddenAt IS NULL", chosen.map(\.key)) {
                try Crew(row: $0, startingAt: 0)
            }
            return crews.compactMap { crew in crew.id.flatMap { nearest[$0] }.map { (crew, $0) } }
                .sorted { ($0.1, $0.0.id ?? 0) < ($1.1, $1.0.id ?? 0) }
        }
    }
}

extension AppDatabase {
    /// Most meetups a near search weighs (the nearest are kept): only their coordinates are
    /// read, and only the nearest `limit` whole.
    public static let nearCandidates = 20_000
    /// Where a nearest-first search starts: a circle of 500 m, widened until it holds a page.
    static let nearestFirstReach = 500.0
}

/// A meeting point, as a near search reads thousands of candidates: by place. Its id is the
/// meetup's, or (`selectList(id: "crewID")`) the crew's whose meetup it is.
private struct MeetupPoint: SQLColumns {
    enum Columns: Int, SQLColumn {
        case id, latitude, longitude
    }

    static let selection = SQLSelection(Columns.self, table: "meetups")

    static func selectList(id: String) -> String {
        Columns.selectList { column in column == .id ? id : column.name }
    }

    let id: Int64
    let place: Coordinate?

    init(row: some PositionalRow) throws {
        let column = try row.columns(of: Self.self)
        id = try column(.id)
        place = Coordinate(latitude: try column(.latitude), longitude: try column(.longitude))
    }
}
