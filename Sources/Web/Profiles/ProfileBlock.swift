import HTTP
import Storage

extension App {
    /// `POST /u/:username/block` and `/unblock`
    func profileBlock(_ on: Bool) -> Page {
        { [unowned self] context in
            let me = try context.requireUser()
            let user = try profileUser(context)
            try storageAction(context) { try database.moderation.setBlock(blockerID: me.storedID, blockedID: user.storedID, on: on) }
            return redirect(to: Paths.profile(user.username), flash: on ? \.blocked : \.unblocked)
        }
    }
}
