/// A browser and its system as a person names them ("Chrome on Android", "KakaoTalk on
/// iPhone"), read from a `User-Agent` header: any text, matched by the tokens browsers put in
/// it, most specific first (Edge and Samsung Internet also say Chrome; Chrome also says Safari).
struct BrowserName: Equatable {
    let browser: String?
    let system: String?

    init(userAgent: String) {
        let browsers: [(token: String, name: String)] = [
            ("KAKAOTALK", "KakaoTalk"), ("NAVER(inapp", "NAVER"), ("SamsungBrowser/", "Samsung Internet"), ("Edg/", "Edge"),
            ("OPR/", "Opera"), ("Whale/", "Whale"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"), ("CriOS/", "Chrome"),
            ("Chromium/", "Chromium"), ("Chrome/", "Chrome"), ("Safari/", "Safari"), ("curl/", "curl"),
        ]
        let systems: [(token: String, name: String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"), ("Windows", "Windows"),
            ("Macintosh", "macOS"), ("Linux", "Linux"),
        ]
        browser = browsers.first { userAgent.contains($0.token) }?.name
        system = systems.first { userAgent.contains($0.token) }?.name
    }
}
