module.exports = { docs: ['guide', 'reference'] };
