#pragma once
// THE list of tunables. One line per parameter: everything else (the enum,
// preset keys and their validation, the README table, later the sliders,
// timeline tracks and audio routes) is generated from it.
//
// Units: seconds and world units (px in 2D). Speeds are px/s, accelerations
// px/s^2. The flocking rules produce a velocity correction (px/s) that is
// applied over one reference step of 1/60 s, i.e. as an acceleration of
// correction * 60; "weight x maxSpeed" below means a correction of that size.
// Converting the articles (tuned per frame at 60 FPS):
//   speed  px/frame   * 60   = px/s     (3.2 px/frame    -> 192 px/s)
//   force  px/frame^2 * 3600 = px/s^2   (0.06-0.12       -> 216-432 px/s^2)
//   article 000's maxForce "11 px/s^2" = 0.07 * maxSpeed per frame -> 672 px/s^2
//   article 001's wander 0.15-0.30 px/frame^2 is absolute; as a fraction of
//   its maxSpeed it is wander / maxSpeed (0.2 / 3.2 = 0.06) -> wanderWeight
//   article 001's soft wall strength 1.6 px/frame^2 / 3.2 -> boundaryWeight 0.5
//   wander phase 0.035 rad/frame * 60 = 2.1 rad/s
//
// X(Enum, key, label, unit, group, min, max, default, scale, choices, description)
#define MIROFISH_PARAMS(X)                                                                                          \
    X(SeparationWeight, "separationWeight", "Separation", "", "Flocking rules", 0, 20, 1.6, Linear, "",             \
      "Weight of steering away from neighbours inside the separation radius (inverse-distance weighted).")         \
    X(AlignmentWeight, "alignmentWeight", "Alignment", "", "Flocking rules", 0, 20, 1.0, Linear, "",                \
      "Weight of steering towards the mean velocity of the neighbours.")                                           \
    X(CohesionWeight, "cohesionWeight", "Cohesion", "", "Flocking rules", 0, 20, 0.9, Linear, "",                   \
      "Weight of steering towards the plain centroid of the neighbours.")                                          \
    X(PerceptionRadius, "perceptionRadius", "Perception radius", "px", "Radii and vision", 1, 2000, 75, Log, "",    \
      "How far a fish sees its neighbours; aim for 5-8 neighbours on average. Also sets the grid cell size.")      \
    X(SeparationRadius, "separationRadius", "Separation radius", "px", "Radii and vision", 0, 1000, 28, LogFromZero, \
      "", "Seen neighbours closer than this push the fish away; keep perception at least 2.5x this.")              \
    X(FovHalfAngle, "fovHalfAngle", "Field of view (half angle)", "deg", "Radii and vision", 0, 180, 110, Linear,  \
      "", "Neighbours outside this cone around the direction of motion are not seen; 180 sees all around.")        \
    X(MinDistance, "minDistance", "Minimum distance", "px", "Radii and vision", 0.1, 50, 2, Log, "",                \
      "Distances below this count as this in separation, so coincident fish do not explode.")                      \
    X(MaxSpeed, "maxSpeed", "Max speed", "px/s", "Motion", 1, 5000, 160, Log, "",                                   \
      "Speed limit of a fish (before its own variation factor and alarm boost).")                                  \
    X(MaxForce, "maxForce", "Max force", "px/s^2", "Motion", 1, 100000, 672, Log, "",                               \
      "Limit of the summed steering acceleration; about 0.07 x maxSpeed per frame.")                               \
    X(MinSpeed, "minSpeed", "Min speed", "x maxSpeed", "Motion", 0, 1, 0.85, Linear, "",                         \
      "Fish do not slow below this share of their max speed (real fish cruise); 0 lets them stop.")                \
    X(ReactionLag, "reactionLag", "Reaction lag", "", "Motion", 0, 0.95, 0.3, Linear, "",                           \
      "Share of the previous acceleration kept each 1/60 s: accel = (1-lag) accel + lag prev.")                    \
    X(TurnRate, "turnRate", "Heading turn rate", "deg/s", "Motion", 10, 1440, 240, Log, "",                         \
      "How fast the drawn heading may turn, limited per fixed step (150-300 looks natural).")                      \
    X(Variation, "variation", "Per-fish variation", "", "Life", 0, 0.5, 0.15, Linear, "",                           \
      "Each fish's speed, perception and weights get a fixed factor in [1-v, 1+v]; 0 turns it off.")               \
    X(Noise, "noise", "Current noise", "x maxForce", "Life", 0, 1, 0.04, Linear, "",                                \
      "Coherent noise (water currents): a push of at most this share of maxForce in each component, on average "  \
      "about half of it in length; above 0.08 the school twitches.")                                               \
    X(NoiseScale, "noiseScale", "Current size", "px", "Life", 10, 10000, 300, Log, "",                              \
      "Spatial size of the noise currents, as a whole number of them across the world (at most half "               \
      "the world, which holds two across): sizes that give the same number give the same currents.")                \
    X(NoiseTimeScale, "noiseTimeScale", "Current change time", "s", "Life", 0.1, 120, 4, Log, "",                   \
      "Time over which the noise currents change.")                                                                \
    X(Jitter, "jitter", "Jitter", "x maxForce", "Life", 0, 1, 0.02, Linear, "",                                     \
      "Tiny independent random steering per fish and 1/60 s; breaks symmetric starts.")                            \
    X(WanderWeight, "wanderWeight", "Wander", "x maxSpeed", "Life", 0, 2, 0.06, Linear, "",                         \
      "Each fish's own slowly turning wish (a unit vector at its wander phase).")                                  \
    X(WanderRate, "wanderRate", "Wander rate", "rad/s", "Life", 0, 20, 2.1, Linear, "",                             \
      "How fast the wander phase turns; 2.1 rad/s is one turn in 3 s.")                                            \
    X(BoundaryMode, "boundaryMode", "Boundary", "", "Boundaries", 0, 2, 2, Linear, "wrap|bounce|soft",              \
      "wrap: the world is a torus; bounce: walls reflect; soft: a force pushes inwards near the edges.")           \
    X(BoundaryMargin, "boundaryMargin", "Boundary margin", "px", "Boundaries", 0, 5000, 120, LogFromZero,          \
      "", "Width of the soft-boundary zone; 10-15% of the short side and at least 2-3 perception radii.")          \
    X(BoundaryWeight, "boundaryWeight", "Boundary weight", "x maxSpeed", "Boundaries", 0, 50, 1.2, Linear, "",     \
      "Strength of the soft boundary at the wall (quadratic in depth); keep it above cohesion.")                   \
    X(PredatorRadius, "predatorRadius", "Predator range", "px", "Predators and fields", 0, 2000, 160, LogFromZero, \
      "", "Fish closer than this to a predator are repelled and alarmed.")                                         \
    X(PredatorRepulsion, "predatorRepulsion", "Predator repulsion", "x maxSpeed", "Predators and fields", 0, 200,   \
      15, Linear, "", "Repulsion from a predator, an order of magnitude above the rules.")                        \
    X(PredatorSpeed, "predatorSpeed", "Predator speed", "px/s", "Predators and fields", 1, 5000, 190, Log, "",      \
      "Speed of predators.")                                                                                       \
    X(PredatorForce, "predatorForce", "Predator agility", "px/s^2", "Predators and fields", 1, 100000, 500, Log,    \
      "", "Steering acceleration limit of predators.")                                                             \
    X(AlarmDuration, "alarmDuration", "Alarm duration", "s", "Predators and fields", 0, 10, 1.5, Linear, "",        \
      "How long a scared fish stays alarmed (1-2 s).")                                                             \
    X(AlarmSpeedBoost, "alarmSpeedBoost", "Alarm speed boost", "", "Predators and fields", 0, 2, 0.3, Linear, "",   \
      "Extra max speed of an alarmed fish (0.3 = +30%).")                                                          \
    X(AlarmCohesion, "alarmCohesion", "Alarm cohesion factor", "", "Predators and fields", 0, 1, 0.5, Linear, "",   \
      "Cohesion weight multiplier of an alarmed fish (0.5 = halved).")                                             \
    X(ObstacleMargin, "obstacleMargin", "Obstacle margin", "px", "Predators and fields", 0, 1000, 40, LogFromZero, \
      "", "Distance from an obstacle's surface at which fish start avoiding it.")                                  \
    X(ObstacleWeight, "obstacleWeight", "Obstacle avoidance", "x maxSpeed", "Predators and fields", 0, 100, 4,      \
      Linear, "", "Strength of obstacle avoidance at the surface (quadratic in depth).")                           \
    X(GoalWeight, "goalWeight", "Goal weight", "", "Predators and fields", 0, 20, 0.6, Linear, "",                  \
      "Weight of steering towards the leader / goal, when the preset has one.")                                    \
    X(GoalRadius, "goalRadius", "Goal range", "px", "Predators and fields", 0, 100000, 0, LogFromZero,             \
      "", "Only fish within this distance follow the leader; 0 means every fish.")                                 \
    X(LeaderSpeed, "leaderSpeed", "Leader speed", "px/s", "Predators and fields", 1, 5000, 110, Log, "",            \
      "Speed at which the leader travels its path.")                                                               \
    X(FishLength, "fishLength", "Fish length", "px", "Rendering", 1, 200, 6, Log, "",                               \
      "Drawn body length of a fish at rest, nose to tail. Article 001's 6 px reaches from the middle to the nose "  \
      "(its fish are 9.6 px long and 6 px wide at rest); the default draws slimmer fish.")                         \
    X(SpeedStretch, "speedStretch", "Speed stretch", "s", "Rendering", 0, 0.2, 0.02, Linear, "",                    \
      "Extra body length per px/s of speed: article 001 adds 1.2 px per px/frame to its 6 px (0.02 s).")          \
    X(FishWidth, "fishWidth", "Fish width (share of length)", "", "Rendering", 0.1, 1, 0.4, Linear, "",            \
      "Drawn body width as a share of its length at rest.")                                                        \
    X(ColorMode, "colorMode", "Colour by", "", "Rendering", 0, 2, 0, Linear, "speed|heading|palette",               \
      "speed: slow blue to fast white; heading: a hue per direction; palette: a fixed colour per fish.")           \
    X(Trails, "trails", "Trails", "", "Trails", 0, 1, 0, Linear, "off|on",                                         \
      "on: fish paint short translucent strokes that pile up (additive light) and fade; off: drawn afresh each frame.") \
    X(TrailPersistence, "trailPersistence", "Persistence (kept after 1 s)", "", "Trails", 0, 1, 0.85, Linear, "",             \
      "Share of a stroke's light left after one second: 0 is gone at once, 1 never fades.")                        \
    X(TrailOpacity, "trailOpacity", "Stroke opacity", "", "Trails", 0.005, 1, 0.1, Log, "",                        \
      "Light a fish adds to the canvas per 1/60 s (so the look does not depend on the frame rate).")                \
    X(TrailExposure, "trailExposure", "Exposure", "", "Trails", 0.05, 20, 1.5, Log, "",                            \
      "Brightness of the piled-up light, shown as 1 - exp(-exposure x light): it saturates instead of clipping.")   \
    X(TrailPalette, "trailPalette", "Trail colours", "", "Trails", 0, 3, 0, Linear, "speed|heading|age|gradient",  \
      "speed: blue to white; heading: a hue per direction; age: fresh strokes white, deep blue as they fade; gradient: ember red to yellow by speed.")
