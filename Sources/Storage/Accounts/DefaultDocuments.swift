/// The first version of each document, Moim's own words for a crew site run as Moim runs: the
/// operator edits them from `/admin/documents` (a new version each save) before opening, to
/// name themselves and anything they do differently.
extension SiteDocument {
    static func defaultBody(_ kind: Kind) -> String {
        switch kind {
        case .terms: terms
        case .privacy: privacy
        case .refunds: refunds
        }
    }

    private static let terms = """
        ## 이용약관

        1. 이 사이트는 운동 크루가 모이고, 글을 쓰고, 모임을 열고, 기록을 남기는 곳입니다. 운영자는 아래 사업자 정보에 적힌 사람입니다.
        2. 만 14세 이상만 가입할 수 있습니다.
        3. 내가 쓴 글, 사진, 댓글, 메시지의 권리는 나에게 있습니다. 다른 회원에게 보여 주는 데 필요한 만큼만 사이트가 사용합니다.
        4. 다른 사람을 괴롭히거나, 속이거나, 남의 개인정보를 올리거나, 불법적인 내용을 올리면 글이 숨겨지고 계정이 제한될 수 있습니다. 제재는 공개 기록에 남습니다.
        5. 모임의 회비와 크루 회비는 크루가 정하고, 결제는 결제 대행사를 거칩니다. 환불은 환불 정책을 따릅니다.
        6. 언제든 설정에서 내 데이터를 내려받고 계정을 삭제할 수 있습니다.
        7. 약관이 바뀌면 다음 방문 때 새 약관에 다시 동의를 구합니다.

        ## Terms of use

        1. This site is where sports crews gather, post, hold meetups and keep their records. It is run by the operator named in the business details below.
        2. You must be 14 or older to join.
        3. What you post (writing, photos, comments, messages) stays yours; the site uses it only as far as showing it to other members needs.
        4. Harassing, deceiving, posting someone else's personal data or anything unlawful can get posts hidden and the account limited. Sanctions are logged publicly.
        5. Crews set their own fees; payments go through a payment provider, and refunds follow the refund policy.
        6. You can download your data and delete your account from settings at any time.
        7. When these terms change, you are asked to agree again on your next visit.
        """

    private static let privacy = """
        ## 개인정보 수집·이용 동의

        **수집 항목, 목적, 보관 기간**

        - **아이디, 이메일, 비밀번호(해시)**: 가입, 로그인, 알림 메일. 탈퇴 즉시 삭제합니다.
        - **이름, 소개, 성별, 출생 연도, 직업, 지역, 직장 도메인** (선택): 프로필과 모임 참가 조건. 탈퇴 즉시 삭제합니다.
        - **글, 사진, 댓글, 메시지, 모임 참가, 러닝 기록과 경로**: 서비스 제공. 탈퇴할 때 삭제하거나 "탈퇴한 회원"으로 남깁니다 (회원이 고릅니다).
        - **결제 기록** (금액, 일시, 결제 번호): 전자상거래법에 따라 5년 보관합니다.
        - **로그인한 브라우저와 접속 시각**: 보안과 로그인한 브라우저 목록. 로그아웃하거나 탈퇴하면 삭제합니다.

        동의하지 않으면 가입할 수 없습니다. 선택 항목은 비워 두어도 됩니다. 개인정보는 결제 대행사(결제할 때)와 메일 발송 서비스 말고는 누구에게도 제공하지 않습니다. 설정에서 내 데이터를 내려받고, 고치고, 계정을 삭제할 수 있습니다.

        ## Collection and use of personal data

        **What is collected, why, and for how long**

        - **Username, email, password (hashed)**: signing up and in, notification mail. Erased when you delete your account.
        - **Name, bio, gender, birth year, job, region, workplace domain** (optional): your profile and meetup eligibility. Erased when you delete your account.
        - **Posts, photos, comments, messages, meetups, runs and routes**: running the service. Deleted, or kept as "deleted member", when you leave (your choice).
        - **Payment records** (amount, time, payment number): kept 5 years, as Korea's e-commerce act requires.
        - **Signed-in browsers and when they were used**: security, and the list of signed-in browsers. Erased when you sign out or leave.

        Without this agreement you cannot join. Optional fields may stay empty. Personal data goes to no one but the payment provider (when you pay) and the mail service. From settings you can download, correct and delete your data.
        """

    private static let refunds = """
        ## 환불 정책

        - 크루 가입비는 크루가 정한 환불 기간 안에 크루를 나가면 자동으로 전액 환불됩니다. 기간은 크루 페이지에 적혀 있습니다.
        - 그 밖의 환불(기간별 회비 등)은 크루 운영진이 크루의 회비 페이지에서 처리합니다.
        - 환불은 결제한 수단으로 돌아가며, 카드사에 따라 3–7일 걸릴 수 있습니다.

        ## Refund policy

        - A crew's joining fee is refunded in full, by itself, when you leave within the refund period the crew set. The crew's page says how long it is.
        - Other refunds (dues for a period) are made by the crew's staff from the crew's dues page.
        - Refunds go back to the card or account that paid, which can take 3–7 days.
        """
}
