/// Meeting points by latitude, then longitude: a near search reads the latitude band of its
/// bounding box from the index and checks longitudes there, on either engine.
enum MeetupPlacesSchema {
    static let sql = "CREATE INDEX meetups_place ON meetups(latitude, longitude) WHERE latitude IS NOT NULL"
}
