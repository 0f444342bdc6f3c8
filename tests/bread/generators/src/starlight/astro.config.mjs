// Starlight (Astro) site of the bread generator corpus: code blocks drawn
// by Expressive Code, Starlight's default.
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';

export default defineConfig({
  integrations: [
    starlight({
      title: 'Larkspur',
      sidebar: [{ label: 'Guide', items: ['guide', 'reference'] }],
    }),
  ],
});
