import HTTP

extension App {
    /// `GET /media/:name`: an uploaded image, from the folder or the bucket; a name that is not
    /// one of the site's images is 404.
    func mediaShow(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let name = request.parameters["name"], let response = try media.response(name: name, request: request) else {
            throw HTTPError(.notFound)
        }
        return response
    }
}
