/// Each photo's and crew cover's mean colour (0xRRGGBB), shown behind it while it loads.
/// Images stored before have none (NULL) and show the page's own background.
enum PhotoTonesSchema {
    static func sql(_ t: SchemaDialect) -> String {
        """
        ALTER TABLE photos ADD COLUMN tone \(t.shortInteger) CHECK (tone BETWEEN 0 AND 16777215);
        ALTER TABLE crews ADD COLUMN coverTone \(t.shortInteger) CHECK (coverTone BETWEEN 0 AND 16777215);
        """
    }
}
