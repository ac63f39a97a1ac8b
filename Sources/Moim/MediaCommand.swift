import ArgumentParser
import Foundation
import Imaging
import Web

struct MediaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media",
        abstract: "Uploaded images: make missing variants, or process one file as an upload would.",
        subcommands: [Rebuild.self, Convert.self])

    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the phone-sized variants of every image stored without them (safe while the site serves; run it again to resume).")

        @OptionGroup var dataOptions: DataOptions

        func run() throws {
            let database = try dataOptions.open()
            defer { try? database.close() }
            var web = WebConfiguration()
            web.mediaDirectory = dataOptions.data + "/media"
            web.mediaBucket = try dataOptions.mediaBucket()
            let done = try MediaRebuild.run(database: database, configuration: web) { progress in
                print("\(progress.images) images, \(progress.variantsMade) variants made\(progress.failed > 0 ? ", \(progress.failed) failed" : "")")
                fflush(nil)
            }
            if done.failed > 0 { throw ExitCode.failure }
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Process an image file exactly as an upload (the original kept and its variants) into a folder, and say how long it took.")

        @Argument(help: "The image: JPEG, PNG, WebP, GIF, HEIC or AVIF.") var file: String
        @Option(help: "The folder to write the files into.") var out: String

        func run() throws {
            guard let bytes = FileManager.default.contents(atPath: file) else { throw ValidationError("Cannot read \(file).") }
            let started = Date()
            let image: ProcessedImage
            do {
                image = try ImageProcessor(concurrency: 1).process([UInt8](bytes))
            } catch {
                let why = switch error {
                case .tooManyPixels: "has too many pixels (\(ImageProcessor.maximumPixels / 1_000_000) megapixels and \(ImageProcessor.maximumSide) pixels a side at most)"
                case .busy: "could not be decoded just now"
                default: "is not an image Moim takes (JPEG, PNG, WebP, GIF, HEIC or AVIF)"
                }
                FileHandle.standardError.write(Data("Error: \(file) \(why).\n".utf8))
                throw ExitCode.failure
            }
            let seconds = Date().timeIntervalSince(started)
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try Data(image.original).write(to: URL(fileURLWithPath: "\(out)/original.\(image.format.fileExtension)"))
            for variant in image.variants {
                try Data(variant.data).write(to: URL(fileURLWithPath: "\(out)/\(variant.width).\(variant.format.fileExtension)"))
            }
            let total = image.variants.reduce(image.original.count) { $0 + $1.data.count }
            print(String(format: "%@: %d×%d, %d files, %d bytes from %d, in %.0f ms", file, image.width, image.height,
                         image.variants.count + 1, total, bytes.count, seconds * 1000))
        }
    }
}
