import Foundation
import Web

extension Serve {
    /// Deadlines that pass while nobody opens the page (a lottery's draw, a place not
    /// re-confirmed): at start, so that what fell due while the server was down happens now,
    /// then every minute.
    func startSweeping(_ app: App) {
        Thread.detachNewThread {
            while true {
                do {
                    try app.sweep()
                } catch {
                    FileHandle.standardError.write(Data("sweep failed: \(error)\n".utf8))
                }
                Thread.sleep(forTimeInterval: 60)
            }
        }
    }
}
