import HTTP
import Imaging
import Storage

/// Photos sent with a form (a post's, a message's, field `photos`): each within the byte cap
/// and a real image, no more than the form allows.
struct PhotoUploads {
    static let maximumBytes = 10 * 1024 * 1024

    let files: [MultipartForm.File]

    init(_ context: RequestContext) {
        files = context.files.filter { $0.field == "photos" }
    }

    var isEmpty: Bool { files.isEmpty }

    /// Every photo decoded and made ready to store; a refusal goes into `errors` (as `photos`)
    /// with the name of the file at fault. Throws only when every decoding slot stays busy (503).
    func process(maximum: Int, with processor: ImageProcessor, errors: inout FieldErrors) throws -> (images: [ProcessedImage], badFile: String?) {
        if files.count > maximum { errors.add("photos", .errors.photo_count) }
        var images: [ProcessedImage] = []
        for file in files.prefix(maximum) {
            guard file.data.count <= Self.maximumBytes else {
                errors.add("photos", .errors.photo_too_large)
                return (images, file.filename)
            }
            do {
                images.append(try processor.process(file.data))
            } catch .busy {
                throw App.imagesBusy
            } catch {
                errors.add("photos", error == .tooManyPixels ? .errors.photo_pixels : .errors.photo_not_image)
                return (images, file.filename)
            }
        }
        return (images, nil)
    }
}

extension MediaStore {
    /// Stores the images in order (fsynced), as photos to attach; if one fails, none stays.
    func save(_ images: [ProcessedImage]) throws -> [NewPhoto] {
        var photos: [NewPhoto] = []
        do {
            for image in images {
                photos.append(NewPhoto(fileName: try save(image), mediaType: image.format.mediaType, width: image.width, height: image.height,
                                       byteCount: image.original.count, tone: image.averageColour, jpegWidths: image.jpegWidths))
            }
        } catch {
            delete(photos.map(\.fileName))
            throw error
        }
        return photos
    }
}
