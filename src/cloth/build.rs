//! Cloth builders: a grid or a triangle mesh turned into particles, triangles
//! and the constraints of its topology.
//!
//! - stretch: every edge of the mesh (a grid's horizontal and vertical edges);
//! - shear: a grid's two quad diagonals (a mesh has no quads to shear);
//! - bend: across each interior edge, the distance between the two opposite
//!   vertices (a grid's distance-two neighbours along rows and columns);
//! - tethers: from every free particle to the nearest pinned particle of
//!   each of its nearest pin groups, by Euclidean or geodesic (shortest path
//!   along the edges) distance.
//!
//! Everything is built in a fixed order from the input alone, so building the
//! same cloth twice gives the same bits.

use crate::constraints::bend::{self, BendSet};
use crate::constraints::distance::DistanceConstraint;
use crate::constraints::tether::TetherSet;
use glam::{Quat, Vec3};
use std::collections::{BinaryHeap, HashMap};

/// How tethers measure the distance to their anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum TetherMode {
    /// No tethers.
    None = 0,
    /// Straight-line distance to the nearest pinned particle of each of the
    /// four nearest pin groups (the default).
    #[default]
    Euclidean = 1,
    /// Shortest path along the cloth's edges to the nearest pinned particle
    /// of each of the nearest pin groups: looser than Euclidean, right for
    /// cloth that folds around a body.
    Geodesic = 2,
}

impl TetherMode {
    /// Converts an ABI value.
    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(Self::None),
            1 => Some(Self::Euclidean),
            2 => Some(Self::Geodesic),
            _ => None,
        }
    }
}

/// How a cloth resists bending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u32)]
pub enum BendMode {
    /// A stick between the vertices opposite each interior edge (a grid's
    /// distance-two neighbours): cheap, also resists in-plane compression.
    #[default]
    Distance = 0,
    /// The dihedral angle across each interior edge: bends only; its
    /// compliance is in rad/(N m) a hinge. A grid adds coarse hinges
    /// across its rows and columns (every 2, 4, 8, ... rows) at the same
    /// stiffness, so a stiff flap holds at any resolution: 1e-7 and below
    /// hold it rigid, 1 and above let it hang. A grid's bending stiffness
    /// tends to about `1 / compliance` N m (a metre of width, whatever the
    /// spacing) as the substeps grow: a clamped 0.58 m strip droops within
    /// 2x of the beam formula at 64 substeps, but 3-13x more at 8 for
    /// compliances 3e-3 to 3e-2, which one pass a substep does not
    /// converge. The default 1e-3 is a stiff plate; thick leather is about
    /// 10, cotton 1e5 to 1e6 (bending rigidity 1e-6 to 1e-5 N m).
    Dihedral = 1,
}

impl BendMode {
    /// Converts an ABI value.
    pub fn from_u32(v: u32) -> Option<Self> {
        match v {
            0 => Some(Self::Distance),
            1 => Some(Self::Dihedral),
            _ => None,
        }
    }
}

/// What grids and meshes share: material and behaviour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClothOptions {
    /// Total mass, kg (> 0).
    pub mass: f32,
    /// XPBD compliance of the edges (m/N).
    pub stretch_compliance: f32,
    /// XPBD compliance of a grid's diagonals.
    pub shear_compliance: f32,
    /// XPBD compliance of bending (sticks, or angles with [`BendMode::Dihedral`]).
    pub bend_compliance: f32,
    /// Sticks or dihedral angles.
    pub bend: BendMode,
    /// Tethers from the pinned particles.
    pub tethers: TetherMode,
    /// Tether length as a multiple of the rest distance (>= 1).
    pub tether_scale: f32,
    /// Collision radius of each vertex, metres (>= 0): the distance kept from
    /// colliders, from the cloth's own triangles and from other cloths.
    pub thickness: f32,
    /// Aerodynamic drag coefficient (>= 0).
    pub drag: f32,
    /// Aerodynamic lift coefficient (>= 0).
    pub lift: f32,
    /// Vertices keep `thickness` from the cloth's own triangles.
    pub self_collision: bool,
    /// Vertices keep `thickness` from other cloths that also enable it.
    pub cloth_collision: bool,
}

impl Default for ClothOptions {
    fn default() -> Self {
        ClothOptions {
            mass: 1.0,
            stretch_compliance: 0.0,
            shear_compliance: 1e-6,
            bend_compliance: 1e-3,
            bend: BendMode::Distance,
            tethers: TetherMode::Euclidean,
            tether_scale: 1.0,
            thickness: 0.01,
            drag: 1.0,
            lift: 0.3,
            self_collision: false,
            cloth_collision: false,
        }
    }
}

/// Grid pin flag: the top-left vertex.
pub const PIN_TOP_LEFT: u32 = 1;
/// Grid pin flag: the top-right vertex.
pub const PIN_TOP_RIGHT: u32 = 2;
/// Grid pin flag: the whole top row.
pub const PIN_TOP_EDGE: u32 = 4;
pub const PIN_ALL: u32 = PIN_TOP_LEFT | PIN_TOP_RIGHT | PIN_TOP_EDGE;

/// A rectangular cloth: in the frame's local XY plane, +X along columns, -Y
/// along rows, origin at the top-left vertex; particle `r * columns + c`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridDef {
    /// Where the top-left vertex goes.
    pub position: Vec3,
    /// Orientation of the grid's frame.
    pub rotation: Quat,
    /// Vertices along X (>= 2).
    pub columns: u32,
    /// Vertices along Y (>= 2).
    pub rows: u32,
    /// Metres between neighbours (> 0).
    pub spacing: f32,
    /// `PIN_*` flags.
    pub pins: u32,
    /// Material and behaviour.
    pub options: ClothOptions,
}

impl Default for GridDef {
    fn default() -> Self {
        GridDef {
            position: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            columns: 16,
            rows: 16,
            spacing: 0.1,
            pins: PIN_TOP_EDGE,
            options: ClothOptions::default(),
        }
    }
}

impl GridDef {
    /// The same grid laid flat in its frame's XZ plane (the C
    /// `SINEW_GRID_PLANE_XZ`): +X along columns, +Z along rows, facing +Y,
    /// so with an identity rotation it lies on a floor. The frame turns a
    /// quarter turn about its X axis (+Y onto -Z) before it is placed.
    ///
    /// ```
    /// use sinew::{GridDef, Vec3};
    /// let mat = GridDef { columns: 3, rows: 2, spacing: 0.5, pins: 0, ..GridDef::default() }.in_xz_plane();
    /// // Row 1 lies 0.5 m along +Z, at the height of row 0.
    /// assert!((mat.rotation * Vec3::new(0.0, -0.5, 0.0) - Vec3::new(0.0, 0.0, 0.5)).length() < 1e-6);
    /// ```
    pub fn in_xz_plane(self) -> GridDef {
        let quarter_turn = Quat::from_xyzw(-std::f32::consts::FRAC_1_SQRT_2, 0.0, 0.0, std::f32::consts::FRAC_1_SQRT_2);
        GridDef { rotation: self.rotation * quarter_turn, ..self }
    }
}

/// A cloth from an engine's triangle mesh.
#[derive(Debug, Clone, Copy)]
pub struct MeshDef<'a> {
    /// The frame the vertices are given in: position.
    pub position: Vec3,
    /// The frame the vertices are given in: orientation.
    pub rotation: Quat,
    /// Vertex positions in the frame above.
    pub vertices: &'a [Vec3],
    /// Triangles as vertex indices, counter-clockwise seen from the front.
    pub triangles: &'a [[u32; 3]],
    /// Vertices closer than this (metres, >= 0) become one particle; 0 welds
    /// only exactly equal positions.
    pub weld_tolerance: f32,
    /// Per-vertex inverse mass overriding `options.mass` (0 pins).
    pub inv_masses: Option<&'a [f32]>,
    /// Per-vertex pin mask (true pins), applied after the masses.
    pub pinned: Option<&'a [bool]>,
    /// Material and behaviour.
    pub options: ClothOptions,
}

/// A built cloth, ready to become a body.
#[derive(Debug, Clone, Default)]
pub struct Built {
    pub positions: Vec<Vec3>,
    pub inv_mass: Vec<f32>,
    /// Non-degenerate triangles over particles.
    pub triangles: Vec<[u32; 3]>,
    /// The particle of each input vertex.
    pub vertex_map: Vec<u32>,
    pub sticks: Vec<DistanceConstraint>,
    pub bends: BendSet,
    pub tethers: TetherSet,
}

/// Builds a grid (validated by the caller).
pub fn grid(def: &GridDef) -> Built {
    let (cols, rows) = (def.columns as usize, def.rows as usize);
    let n = cols * rows;
    let at = |r: usize, c: usize| (r * cols + c) as u32;
    let s = def.spacing;
    let positions: Vec<Vec3> = (0..n)
        .map(|i| def.position + def.rotation * Vec3::new((i % cols) as f32 * s, -((i / cols) as f32) * s, 0.0))
        .collect();
    let mut pinned = vec![false; n];
    if def.pins & PIN_TOP_EDGE != 0 {
        pinned[..cols].fill(true);
    }
    if def.pins & PIN_TOP_LEFT != 0 {
        pinned[0] = true;
    }
    if def.pins & PIN_TOP_RIGHT != 0 {
        pinned[cols - 1] = true;
    }
    // Uniform density: a particle carries a quarter of each quad it is a
    // corner of, so edges and corners are lighter, as a cut cloth is.
    let quads = ((cols - 1) * (rows - 1)) as f32;
    let inv_mass: Vec<f32> = (0..n)
        .map(|i| {
            let (r, c) = (i / cols, i % cols);
            let corners = |k: usize, len: usize| if k == 0 || k == len - 1 { 1.0 } else { 2.0 };
            let share = corners(r, rows) * corners(c, cols) / 4.0;
            if pinned[i] { 0.0 } else { quads / (share * def.options.mass) }
        })
        .collect();

    let o = &def.options;
    let stick = |a: u32, b: u32, compliance: f32, rest: f32| DistanceConstraint { a, b, rest_length: rest, compliance };
    let mut edges = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                edges.push(stick(at(r, c), at(r, c + 1), o.stretch_compliance, s));
            }
            if r + 1 < rows {
                edges.push(stick(at(r, c), at(r + 1, c), o.stretch_compliance, s));
            }
        }
    }
    let mut shear = Vec::new();
    let diagonal = s * std::f32::consts::SQRT_2;
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            shear.push(stick(at(r, c), at(r + 1, c + 1), o.shear_compliance, diagonal));
            shear.push(stick(at(r, c + 1), at(r + 1, c), o.shear_compliance, diagonal));
        }
    }
    let mut bend = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if o.bend != BendMode::Distance {
                break;
            }
            if c + 2 < cols {
                bend.push(stick(at(r, c), at(r, c + 2), o.bend_compliance, 2.0 * s));
            }
            if r + 2 < rows {
                bend.push(stick(at(r, c), at(r + 2, c), o.bend_compliance, 2.0 * s));
            }
        }
    }

    // Two triangles per quad, the diagonal alternating so the cloth folds
    // alike both ways; counter-clockwise seen from local +Z.
    let mut triangles = Vec::with_capacity(2 * (rows - 1) * (cols - 1));
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            let (a, b, cc, d) = (at(r, c), at(r, c + 1), at(r + 1, c), at(r + 1, c + 1));
            if (r + c) % 2 == 0 {
                triangles.push([a, cc, d]);
                triangles.push([a, d, b]);
            } else {
                triangles.push([a, cc, b]);
                triangles.push([b, cc, d]);
            }
        }
    }
    // Tether paths may cut across the quads' diagonals.
    let paths: Vec<(u32, u32)> = edges.iter().chain(&shear).map(|k| (k.a, k.b)).collect();
    let tethers = tethers(&positions, &inv_mass, &paths, o.tethers, o.tether_scale);
    let bends = if o.bend == BendMode::Dihedral {
        grid_dihedrals(&positions, &triangles, cols, rows, o.bend_compliance)
    } else {
        BendSet::default()
    };
    // The edges come last in a pass (sticks are coloured into batches in
    // the order of their kinds, exec/batches.rs), so where a crumple or
    // a fold asks more than bend sticks, diagonals and edges can give at
    // once, a stretched edge is what the pass corrects last: with one
    // Gauss-Seidel pass a substep every stick acts as rigid at a cloth's
    // masses (alpha / h^2 far below 1 / m), whatever its compliance, and
    // the kind projected last keeps the least error.
    let sticks: Vec<DistanceConstraint> = bend.into_iter().chain(shear).chain(edges).collect();
    Built { positions, inv_mass, triangles, vertex_map: (0..n as u32).collect(), sticks, bends, tethers }
}

/// Builds a mesh cloth (indices and values validated by the caller).
pub fn mesh(def: &MeshDef) -> Built {
    let world: Vec<Vec3> = def.vertices.iter().map(|&v| def.position + def.rotation * v).collect();
    let (vertex_map, positions) = weld(&world, def.weld_tolerance * (1.0 + 1e-6));
    let n = positions.len();

    let mut triangles = Vec::with_capacity(def.triangles.len());
    for t in def.triangles {
        let [a, b, c] = t.map(|v| vertex_map[v as usize]);
        let (pa, pb, pc) = (positions[a as usize], positions[b as usize], positions[c as usize]);
        let area2 = (pb - pa).cross(pc - pa).length();
        let scale = (pb - pa).length_squared().max((pc - pa).length_squared()).max((pc - pb).length_squared());
        if a != b && b != c && a != c && area2 > 1e-6 * scale {
            triangles.push([a, b, c]);
        }
    }

    // Masses by area: each particle carries a third of its triangles' area.
    let mut area = vec![0.0f64; n];
    for t in &triangles {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let third = f64::from((b - a).cross(c - a).length()) / 6.0;
        t.iter().for_each(|&i| area[i as usize] += third);
    }
    let total: f64 = area.iter().sum();
    let mean = total / n as f64;
    let mass = f64::from(def.options.mass);
    let mut inv_mass: Vec<f32> = area
        .iter()
        .map(|&a| {
            let a = if a > 0.0 { a } else { mean.max(1e-12) };
            (total.max(1e-12) / (a * mass)) as f32
        })
        .collect();
    if let Some(w) = def.inv_masses {
        // A welded particle takes the smallest inverse mass of its vertices,
        // so a pin on any of them pins it.
        let mut set = vec![f32::INFINITY; n];
        for (v, &w) in w.iter().enumerate() {
            let i = vertex_map[v] as usize;
            set[i] = set[i].min(w);
        }
        inv_mass = set;
    }
    if let Some(pinned) = def.pinned {
        for (v, _) in pinned.iter().enumerate().filter(|(_, p)| **p) {
            inv_mass[vertex_map[v] as usize] = 0.0;
        }
    }

    // Edges and the triangles on each side of them.
    let mut edges: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    let mut order = Vec::new();
    for t in &triangles {
        for e in 0..3 {
            let (a, b) = (t[e], t[(e + 1) % 3]);
            let key = (a.min(b), a.max(b));
            let opposite = t[(e + 2) % 3];
            edges
                .entry(key)
                .or_insert_with(|| {
                    order.push(key);
                    Vec::new()
                })
                .push(opposite);
        }
    }
    let o = &def.options;
    let mut sticks: Vec<DistanceConstraint> = order
        .iter()
        .map(|&(a, b)| DistanceConstraint { a, b, rest_length: -1.0, compliance: o.stretch_compliance })
        .collect();
    for key in order.iter().filter(|_| o.bend == BendMode::Distance) {
        if let [c, d] = edges[key][..]
            && c != d
            && !edges.contains_key(&(c.min(d), c.max(d)))
        {
            sticks.push(DistanceConstraint { a: c, b: d, rest_length: -1.0, compliance: o.bend_compliance });
        }
    }
    for s in &mut sticks {
        s.rest_length = (positions[s.b as usize] - positions[s.a as usize]).length();
    }
    let tethers = tethers(&positions, &inv_mass, &order, o.tethers, o.tether_scale);
    let bends = if o.bend == BendMode::Dihedral {
        dihedrals(&positions, &triangles, o.bend_compliance)
    } else {
        BendSet::default()
    };
    Built { positions, inv_mass, triangles, vertex_map, sticks, bends, tethers }
}

/// A dihedral constraint across every edge shared by exactly two triangles,
/// at its current angle.
pub fn dihedrals(positions: &[Vec3], triangles: &[[u32; 3]], compliance: f32) -> BendSet {
    let (quads, rest) = dihedral_quads(positions, triangles);
    let compliance = vec![compliance; quads.len()];
    BendSet::from_parts(quads, rest, compliance)
}

/// The quads of [`dihedrals`] and their rest angles.
fn dihedral_quads(positions: &[Vec3], triangles: &[[u32; 3]]) -> (Vec<[u32; 4]>, Vec<f32>) {
    let mut wings: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
    let mut order = Vec::new();
    for t in triangles {
        for e in 0..3 {
            let (a, b) = (t[e], t[(e + 1) % 3]);
            let key = (a.min(b), a.max(b));
            wings
                .entry(key)
                .or_insert_with(|| {
                    order.push(key);
                    Vec::new()
                })
                .push(t[(e + 2) % 3]);
        }
    }
    let (mut quads, mut rest) = (Vec::new(), Vec::new());
    for key in order {
        if let [w1, w2] = wings[&key][..] {
            if w1 == w2 {
                continue;
            }
            let quad = [w1, w2, key.0, key.1];
            rest.push(bend::angle(quad.map(|i| positions[i as usize])));
            quads.push(quad);
        }
    }
    (quads, rest)
}

/// Dihedral bending of a grid: a hinge across every interior edge, as for
/// a mesh, and coarse hinges across the same rows and columns at strides
/// `S = 2, 4, 8, ...` (hierarchical bending, after Mueller 2008,
/// "Hierarchical Position Based Dynamics").
///
/// A bend is a fourth-order operator: Gauss-Seidel carries a correction
/// one hinge a pass, and over `N` hinges its error shrinks by a factor
/// near `1 - c / N^4` a pass, so a stiff strip of 30 hinges clamped at one end drooped
/// 0.50 m of its 0.58 m whatever its compliance (1e-7 to 1, 8 substeps),
/// the fine hinges alone never converging. A coarse hinge is the dihedral
/// across a fine edge `x3 x4` with its wings `S` rows (or columns) away on
/// either side: it turns the far particles straight back, as a coarse
/// level of a multigrid would.
///
/// Level `S` stands on every `S`th row (column) of edges, and on the rows
/// next to the borders, where a wing nearer than `S` is the border's row
/// (so a strip clamped by two rows is held by hinges that turn its far
/// particles about the clamp). Each level models the same bending
/// stiffness: a bend of curvature `kappa` opens a hinge whose wings are `a s`
/// and `b s` from its edge by `theta = kappa (a + b) s / 2`, and one such
/// hinge per `S` rows of fine edges stores the fine hinges' energy
/// `theta^2 / (2 alpha_S)` when `alpha_S = ((a + b) / 2)^2 alpha / S`. The
/// fine hinges and the coarse ones together (the `L` coarse levels of a
/// direction share their half) hold the stiffness of the fine hinges alone
/// at `alpha`: fine hinges at `2 alpha`, coarse at `2 L alpha_S`. The
/// compliance keeps its meaning (rad/(N m) a fine hinge) and the grid its
/// stiffness; what changes is that a stiff one now converges: the strip
/// above droops 4 mm at 1e-7 and 0.48 m at 1. A mesh cloth has no rows to
/// coarsen and keeps its fine hinges alone.
fn grid_dihedrals(positions: &[Vec3], triangles: &[[u32; 3]], cols: usize, rows: usize, compliance: f32) -> BendSet {
    let (mut quads, mut rest) = dihedral_quads(positions, triangles);
    // Levels S = 2, 4, ... while a wing can be S away: S <= n - 2.
    let levels = |n: usize| (1..).map(|j| 1usize << j).take_while(|&s| s + 2 <= n).count();
    let (across_rows, across_columns) = (levels(rows), levels(cols));
    let coarse = across_rows + across_columns > 0;
    let mut alpha = vec![if coarse { 2.0 * compliance } else { compliance }; quads.len()];
    let at = |r: usize, c: usize| (r * cols + c) as u32;
    let mut hinge = |quad: [u32; 4], alpha_s: f32| {
        rest.push(bend::angle(quad.map(|i| positions[i as usize])));
        quads.push(quad);
        alpha.push(alpha_s);
    };
    // A wing S away, or at the border when it is nearer: an edge next to a
    // clamped border turns the far particles about it.
    let wings = |k: usize, n: usize, s: usize| {
        let (a, b) = (s.min(k), s.min(n - 1 - k));
        (a.max(b) == s).then_some((a, b))
    };
    // Level S's hinges stand on every Sth row (column) of edges and on the
    // two next to the borders, each for the energy of S rows of fine edges.
    let on_level = |k: usize, n: usize, s: usize| k.is_multiple_of(s) || k == 1 || k == n - 2;
    let scaled = |levels: usize, a: usize, b: usize, s: usize| {
        let arm = (a + b) as f32 / 2.0;
        2.0 * levels as f32 * arm * arm * compliance / s as f32
    };
    for s in (1..=across_rows).map(|j| 1usize << j) {
        for r in (1..rows - 1).filter(|&r| on_level(r, rows, s)) {
            let Some((a, b)) = wings(r, rows, s) else { continue };
            for c in 0..cols - 1 {
                hinge([at(r - a, c), at(r + b, c), at(r, c), at(r, c + 1)], scaled(across_rows, a, b, s));
            }
        }
    }
    for s in (1..=across_columns).map(|j| 1usize << j) {
        for c in (1..cols - 1).filter(|&c| on_level(c, cols, s)) {
            let Some((a, b)) = wings(c, cols, s) else { continue };
            for r in 0..rows - 1 {
                hinge([at(r, c - a), at(r, c + b), at(r, c), at(r + 1, c)], scaled(across_columns, a, b, s));
            }
        }
    }
    BendSet::from_parts(quads, rest, alpha)
}

/// Merges vertices closer than `tolerance`; returns the particle of each
/// vertex and the particles' positions (the first vertex of each group).
pub fn weld(vertices: &[Vec3], tolerance: f32) -> (Vec<u32>, Vec<Vec3>) {
    let mut map = Vec::with_capacity(vertices.len());
    let mut positions: Vec<Vec3> = Vec::new();
    if tolerance <= 0.0 {
        let mut seen: HashMap<[u32; 3], u32> = HashMap::new();
        for &v in vertices {
            // +0.0 makes -0.0 and 0.0 one key.
            let key = (v + Vec3::ZERO).to_array().map(f32::to_bits);
            let next = positions.len() as u32;
            let i = *seen.entry(key).or_insert(next);
            if i == next {
                positions.push(v);
            }
            map.push(i);
        }
        return (map, positions);
    }
    let cell = |v: Vec3| (v / tolerance).floor().to_array().map(|c| c as i64);
    let mut grid: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
    for &v in vertices {
        let [x, y, z] = cell(v);
        let mut found = None;
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let key = [x.saturating_add(dx), y.saturating_add(dy), z.saturating_add(dz)];
                    for &i in grid.get(&key).into_iter().flatten() {
                        if positions[i as usize].distance_squared(v) <= tolerance * tolerance {
                            found = Some(found.map_or(i, |f: u32| f.min(i)));
                        }
                    }
                }
            }
        }
        let i = match found {
            Some(i) => i,
            None => {
                let i = positions.len() as u32;
                positions.push(v);
                grid.entry([x, y, z]).or_default().push(i);
                i
            }
        };
        map.push(i);
    }
    (map, positions)
}

/// At most this many tethers hold a free particle: one to the nearest
/// anchor of each of the nearest pin groups.
pub(crate) const MAX_TETHERS: usize = 4;

/// Groups of pinned particles joined by `edges` (a pinned top row is one
/// group, two pinned corners are two): each anchor's group, numbered in
/// order of their lowest particle.
fn pin_groups(n: usize, inv_mass: &[f32], edges: &[(u32, u32)]) -> Vec<u32> {
    // Union-find over the pinned particles, the root the lowest index.
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            parent[i as usize] = parent[parent[i as usize] as usize];
            i = parent[i as usize];
        }
        i
    }
    for &(a, b) in edges {
        if inv_mass[a as usize] == 0.0 && inv_mass[b as usize] == 0.0 {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            parent[hi as usize] = lo;
        }
    }
    let mut number = vec![u32::MAX; n];
    let mut group = vec![u32::MAX; n];
    let mut next = 0;
    for i in 0..n as u32 {
        if inv_mass[i as usize] == 0.0 {
            let r = root(&mut parent, i) as usize;
            if number[r] == u32::MAX {
                number[r] = next;
                next += 1;
            }
            group[i as usize] = number[r];
        }
    }
    group
}

/// Tethers from every free particle to the nearest anchor (pinned
/// particle) of each of its [`MAX_TETHERS`] nearest pin groups, by straight
/// line or by shortest path along `edges` (Dijkstra from each group;
/// particles no path reaches get none). Kim, Chentanez and Mueller (2012)
/// attach a particle to every attachment point: one tether to the nearest
/// anchor lets a cloth hung by two corners sag between them with the strain
/// gathered in a few edges (4.5 % on a 64 x 64 cloth), a tether to each
/// corner holds the straight lines of tension from both.
pub fn tethers(positions: &[Vec3], inv_mass: &[f32], edges: &[(u32, u32)], mode: TetherMode, scale: f32) -> TetherSet {
    let n = positions.len();
    let mut set = TetherSet::default();
    if mode == TetherMode::None || !inv_mass.contains(&0.0) {
        return set;
    }
    let group = pin_groups(n, inv_mass, edges);
    let groups = group.iter().filter(|&&g| g != u32::MAX).max().map_or(0, |&g| g as usize + 1);
    // Per free particle its nearest groups' (distance, anchor), nearest
    // first, ties to the lowest anchor index (deterministic), in f64; kept
    // as each group is measured, so the build holds 4 entries a particle
    // whatever the number of groups (pins with no edge between them are a
    // group each).
    let mut near = vec![[(f64::INFINITY, u32::MAX); MAX_TETHERS]; n];
    match mode {
        TetherMode::None => {}
        TetherMode::Euclidean => {
            let anchors: Vec<u32> = (0..n as u32).filter(|&i| inv_mass[i as usize] == 0.0).collect();
            let mut best = vec![(f64::INFINITY, u32::MAX); groups];
            for (i, &x) in positions.iter().enumerate() {
                if inv_mass[i] == 0.0 {
                    continue;
                }
                best.fill((f64::INFINITY, u32::MAX));
                for &a in &anchors {
                    let d = f64::from(x.distance_squared(positions[a as usize]));
                    let slot = &mut best[group[a as usize] as usize];
                    if d < slot.0 {
                        *slot = (d, a);
                    }
                }
                for &(d, a) in &best {
                    // The square root in f32, as the distance is measured.
                    keep_nearest(&mut near[i], (f64::from((d as f32).sqrt()), a));
                }
            }
        }
        TetherMode::Geodesic => {
            let mut adjacency: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
            for &(a, b) in edges {
                let d = f64::from(positions[a as usize].distance(positions[b as usize]));
                adjacency[a as usize].push((b, d));
                adjacency[b as usize].push((a, d));
            }
            let mut row = vec![(f64::INFINITY, u32::MAX); n];
            for g in 0..groups {
                row.fill((f64::INFINITY, u32::MAX));
                let mut heap = BinaryHeap::new();
                for a in (0..n as u32).filter(|&a| group[a as usize] == g as u32) {
                    row[a as usize] = (0.0, a);
                    heap.push(Visit { dist: 0.0, node: a });
                }
                while let Some(Visit { dist: d, node }) = heap.pop() {
                    if d > row[node as usize].0 {
                        continue;
                    }
                    let source = row[node as usize].1;
                    for &(next, len) in &adjacency[node as usize] {
                        let nd = d + len;
                        if nd < row[next as usize].0 {
                            row[next as usize] = (nd, source);
                            heap.push(Visit { dist: nd, node: next });
                        }
                    }
                }
                for (kept, &found) in near.iter_mut().zip(&row) {
                    keep_nearest(kept, found);
                }
            }
        }
    }
    for (i, kept) in near.iter().enumerate() {
        if inv_mass[i] == 0.0 {
            continue;
        }
        for &(d, anchor) in kept.iter().take_while(|b| b.0.is_finite()) {
            set.particle.push(i as u32);
            set.anchor.push(anchor);
            set.length.push(d as f32 * scale);
        }
    }
    set
}

/// Inserts `found` (distance, anchor) into `kept`, the nearest so far in
/// order (distance, then anchor); an infinite distance (not reached) is
/// never kept.
fn keep_nearest(kept: &mut [(f64, u32); MAX_TETHERS], found: (f64, u32)) {
    let before = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).is_lt();
    if !found.0.is_finite() || !before(&found, &kept[MAX_TETHERS - 1]) {
        return;
    }
    let at = kept.iter().position(|k| before(&found, k)).expect("it beats the last");
    kept.copy_within(at..MAX_TETHERS - 1, at + 1);
    kept[at] = found;
}

/// A Dijkstra queue entry, smallest distance first, ties by node.
#[derive(PartialEq)]
struct Visit {
    dist: f64,
    node: u32,
}

impl Eq for Visit {}

impl Ord for Visit {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.dist.total_cmp(&self.dist).then_with(|| other.node.cmp(&self.node))
    }
}

impl PartialOrd for Visit {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_topology_counts() {
        let def = GridDef { columns: 4, rows: 3, ..GridDef::default() };
        let b = grid(&def);
        assert_eq!(b.positions.len(), 12);
        // stretch 3*3 + 4*2 = 17, shear 2 per quad * 6 = 12, bend 2*3 + 4*1 = 10
        assert_eq!(b.sticks.len(), 17 + 12 + 10);
        assert_eq!(b.triangles.len(), 12);
        // Top row pinned; 8 free particles, one tether each, straight up.
        assert_eq!(b.tethers.len(), 8);
        let k = b.tethers.particle.iter().position(|&p| p == 11).unwrap();
        assert_eq!(b.tethers.anchor[k], 3);
        assert!((b.tethers.length[k] - 0.2).abs() < 1e-6);
        // Particle r*columns + c sits at (c s, -r s, 0).
        assert_eq!(b.positions[6], Vec3::new(0.2, -0.1, 0.0));
    }

    #[test]
    fn a_tether_to_each_pin_group() {
        // Two pinned corners are two groups: a tether to each, the nearer
        // first. A pinned top row is one group: one tether.
        let corners = grid(&GridDef { columns: 4, rows: 3, pins: PIN_TOP_LEFT | PIN_TOP_RIGHT, ..GridDef::default() });
        assert_eq!(corners.tethers.len(), 2 * 10);
        let k = corners.tethers.particle.iter().position(|&p| p == 9).unwrap();
        assert_eq!(corners.tethers.particle[k + 1], 9);
        // Particle 9 is at (0.1, -0.2).
        assert_eq!([corners.tethers.anchor[k], corners.tethers.anchor[k + 1]], [0, 3]);
        assert!((corners.tethers.length[k] - 0.05f32.sqrt()).abs() < 1e-6);
        assert!((corners.tethers.length[k + 1] - 0.08f32.sqrt()).abs() < 1e-6);
        let geodesic = GridDef { columns: 4, rows: 3, pins: PIN_TOP_LEFT | PIN_TOP_RIGHT, ..GridDef::default() };
        let options = ClothOptions { tethers: TetherMode::Geodesic, ..ClothOptions::default() };
        assert_eq!(grid(&GridDef { options, ..geodesic }).tethers.len(), 2 * 10);
        assert_eq!(grid(&GridDef { columns: 4, rows: 3, ..GridDef::default() }).tethers.len(), 8);
    }

    #[test]
    fn a_dihedral_grid_has_coarse_hinges_at_the_same_stiffness() {
        let options = ClothOptions { bend: BendMode::Dihedral, bend_compliance: 1e-3, ..ClothOptions::default() };
        let def = GridDef { columns: 5, rows: 30, options, ..GridDef::default() };
        let b = grid(&def);
        let fine = dihedrals(&b.positions, &b.triangles, 1.0).len();
        assert!(b.bends.len() > fine, "{} hinges, {fine} fine", b.bends.len());
        // Flat: every rest angle is 0.
        assert!(b.bends.rest.iter().all(|&r| r.abs() < 1e-6));
        // Rows 1 (next to the border) and 16 hold hinges S = 16 rows
        // across: 1 to 17 with row 0 as the near wing, 16 to 0 and 29.
        let at = |r: u32, c: u32| r * 5 + c;
        let has = |q: [u32; 4]| b.bends.quad.contains(&q);
        assert!(has([at(0, 2), at(17, 2), at(1, 2), at(1, 3)]));
        assert!(has([at(0, 2), at(29, 2), at(16, 2), at(16, 3)]));
        // Fine hinges at 2 alpha; the clamp's S = 16 hinge (wings 1 and 16
        // rows away, 4 levels across the rows) at 2 * 4 * 8.5^2 * alpha / 16.
        let k = b.bends.quad.iter().position(|&q| q == [at(0, 2), at(17, 2), at(1, 2), at(1, 3)]).unwrap();
        assert!((b.bends.compliance[k] - 2.0 * 4.0 * 8.5 * 8.5 * 1e-3 / 16.0).abs() < 1e-7);
        assert!(b.bends.compliance.iter().filter(|&&c| c == 2e-3).count() >= fine);
    }

    #[test]
    fn grid_triangles_face_local_z() {
        let b = grid(&GridDef { columns: 5, rows: 4, ..GridDef::default() });
        for t in &b.triangles {
            let [a, c, d] = t.map(|i| b.positions[i as usize]);
            assert!((c - a).cross(d - a).z > 0.0);
        }
    }

    #[test]
    fn welding_merges_within_tolerance_and_keeps_a_map() {
        let v = [Vec3::ZERO, Vec3::X, Vec3::new(1.0005, 0.0, 0.0), Vec3::new(-0.0, 0.0, 0.0), Vec3::Y];
        let (map, pos) = weld(&v, 0.001);
        assert_eq!(map, vec![0, 1, 1, 0, 2]);
        assert_eq!(pos.len(), 3);
        let (map, _) = weld(&v, 0.0);
        assert_eq!(map, vec![0, 1, 2, 0, 3]);
    }

    #[test]
    fn geodesic_tethers_follow_the_edges() {
        // A path bent into a U: 0 (pinned) - 1 - 2 - 3, with 3 back next to 0.
        let p = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::new(0.0, 1.0, 0.0)];
        let w = [0.0, 1.0, 1.0, 1.0];
        let e = [(0, 1), (1, 2), (2, 3)];
        let g = tethers(&p, &w, &e, TetherMode::Geodesic, 1.0);
        assert_eq!(g.length, vec![1.0, 2.0, 3.0]);
        let eu = tethers(&p, &w, &e, TetherMode::Euclidean, 1.0);
        assert_eq!(eu.length[2], 1.0);
    }
}
