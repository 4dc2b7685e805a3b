import { useState } from 'react';
import type { ImageVariants } from '../lib/api';
import { srcSet } from '../lib/format';
import { PlateIcon } from './icons';

/**
 * A recipe or cookbook image in a box of fixed aspect ratio, so the page does not move when
 * it loads; a placeholder fills the box when there is no image or it fails.
 */
export function RecipeImage(props: {
  src: string | null | undefined;
  variants?: ImageVariants;
  alt: string;
  sizes?: string;
  ratio?: string;
  eager?: boolean;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  const show = props.src && !failed;
  return (
    <div className={`img-box ${props.className ?? ''}`} style={{ aspectRatio: props.ratio ?? '4 / 3' }}>
      {show ? (
        <img
          src={props.src!}
          srcSet={srcSet(props.variants)}
          sizes={srcSet(props.variants) ? (props.sizes ?? '(max-width: 700px) 100vw, 700px') : undefined}
          alt={props.alt}
          loading={props.eager ? 'eager' : 'lazy'}
          // The image a page leads with is what a cook waits for: ask for it before the rest.
          fetchPriority={props.eager ? 'high' : undefined}
          decoding="async"
          onError={() => setFailed(true)}
        />
      ) : (
        <div className="img-placeholder" aria-hidden="true">
          <PlateIcon />
        </div>
      )}
    </div>
  );
}
