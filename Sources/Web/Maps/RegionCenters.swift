import Geo

/// Where a region's map opens: its city hall or provincial office, roughly.
enum RegionCenters {
    static func center(_ region: String?) -> Coordinate? {
        guard let region, let degrees = table[region] else { return nil }
        return Coordinate(latitude: degrees.0, longitude: degrees.1)
    }

    /// Seoul City Hall: where a map opens when nothing says otherwise.
    static let fallback = Coordinate(clamping: 37.566_5, 126.978_0)

    private static let table: [String: (Double, Double)] = [
        "seoul": (37.5665, 126.9780), "busan": (35.1796, 129.0756), "daegu": (35.8714, 128.6014),
        "incheon": (37.4563, 126.7052), "gwangju": (35.1595, 126.8526), "daejeon": (36.3504, 127.3845),
        "ulsan": (35.5384, 129.3114), "sejong": (36.4800, 127.2890), "gyeonggi": (37.2636, 127.0286),
        "gangwon": (37.8813, 127.7298), "chungbuk": (36.6424, 127.4890), "chungnam": (36.6588, 126.6728),
        "jeonbuk": (35.8242, 127.1480), "jeonnam": (34.8161, 126.4629), "gyeongbuk": (36.5760, 128.5056),
        "gyeongnam": (35.2383, 128.6925), "jeju": (33.4996, 126.5312),
    ]
}
