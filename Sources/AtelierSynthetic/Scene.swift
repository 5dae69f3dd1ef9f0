/// Everything the renderer draws: the garment's mesh and texture, the lighting and the studio.
public struct Scene: Sendable {
    public var mesh: TriangleMesh
    public var texture: Texture
    public var lighting: Lighting
    public var studio: Studio

    public init(mesh: TriangleMesh, texture: Texture, lighting: Lighting, studio: Studio) {
        self.mesh = mesh
        self.texture = texture
        self.lighting = lighting
        self.studio = studio
    }
}
