import { applyDecorators } from '@nestjs/common';
import { JoinColumn, ManyToOne, type RelationOptions } from 'typeorm';

/**
 * A many-to-one relation, on the property beside its id column: the join column `column` and its
 * constraint named `<table>_<column>_fkey`, as the migrations name them; required and deleted with
 * its parent unless `options` say otherwise. A parent of another module is named by its table
 * ('workspaces', 'end_users') rather than imported.
 */
export const ForeignKey = (
  parent: Parameters<typeof ManyToOne>[0],
  table: string,
  column: string,
  options: RelationOptions = { onDelete: 'CASCADE', nullable: false },
): PropertyDecorator =>
  applyDecorators(ManyToOne(parent, options), JoinColumn({ name: column, foreignKeyConstraintName: `${table}_${column}_fkey` }));
