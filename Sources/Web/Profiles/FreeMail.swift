/// Mail services anyone can sign up to: an address there proves nothing about a workplace,
/// so a workplace cannot be verified with one (their subdomains neither). The one list;
/// add a domain here when members use a service missing from it.
enum FreeMail {
    static let domains: Set<String> = [
        // Korea
        "naver.com", "daum.net", "hanmail.net", "kakao.com", "nate.com", "empas.com", "korea.com", "dreamwiz.com",
        "hanmir.com", "paran.com", "lycos.co.kr", "chol.com", "freechal.com", "hotmail.co.kr", "yahoo.co.kr",
        // Worldwide
        "gmail.com", "googlemail.com", "icloud.com", "me.com", "mac.com", "outlook.com", "hotmail.com", "live.com",
        "msn.com", "yahoo.com", "ymail.com", "aol.com", "proton.me", "protonmail.com", "pm.me", "tutanota.com",
        "tuta.io", "gmx.com", "gmx.net", "gmx.de", "web.de", "mail.com", "zoho.com", "yandex.com", "yandex.ru",
        "mail.ru", "qq.com", "163.com", "126.com", "fastmail.com", "hey.com", "duck.com",
        // Japan
        "yahoo.co.jp", "docomo.ne.jp", "ezweb.ne.jp", "softbank.ne.jp",
    ]
}
