/// Per photo and crew cover, the widths at which its JPEG is offered in WebP's place because
/// the WebP came out no smaller (`ProcessedImage.jpegWidths`), as a list like `828 1280`.
/// Images stored before have none listed and offer WebP at every width, as they did.
enum JPEGWidthsSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        ALTER TABLE photos ADD COLUMN jpegWidths \(t.text) NOT NULL DEFAULT '' CHECK (length(jpegWidths) <= 200);
        ALTER TABLE crews ADD COLUMN coverJPEGWidths \(t.text) NOT NULL DEFAULT '' CHECK (length(coverJPEGWidths) <= 200);
        """
    }
}
